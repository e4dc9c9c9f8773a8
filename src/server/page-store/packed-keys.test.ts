import { describe, expect, it } from 'vitest';
import { PackedKeys } from './packed-keys.ts';

/** Addresses as the site map makes them, more than one slice of the packing's joins. */
const keys = Array.from({ length: 10_001 }, (_, i) =>
  i % 3 === 0 ? `/blog/${i}` : i % 3 === 1 ? `/blogs?category=${i % 10}&page=${i}` : `/?page=${i}`,
);

describe('PackedKeys', () => {
  it('gives back every key in order, by place (from the end when negative) and by iteration', () => {
    const packed = PackedKeys.of(keys);
    expect(packed.length).toBe(keys.length);
    expect(packed.at(0)).toBe(keys[0]);
    expect(packed.at(4096)).toBe(keys[4096]);
    expect(packed.at(-1)).toBe(keys.at(-1));
    expect([...packed]).toEqual(keys);
    expect(packed.at(keys.length)).toBeUndefined();
    expect(packed.at(-keys.length - 1)).toBeUndefined();
    expect(packed.at(1.5)).toBeUndefined();
  });

  it("keeps a process's share of a generator's keys without an array of them all", () => {
    function* generated() {
      yield* keys;
    }
    const share = PackedKeys.of(generated(), (i) => i % 2 === 1);
    expect([...share]).toEqual(keys.filter((_, i) => i % 2 === 1));
  });

  it('holds the keys as their characters and an offset each', () => {
    const packed = PackedKeys.of(keys);
    const characters = keys.reduce((sum, key) => sum + key.length, 0);
    expect(packed.packedBytes).toBe(characters + 4 * keys.length);
  });

  it('packs nothing', () => {
    const packed = PackedKeys.of([]);
    expect(packed.length).toBe(0);
    expect(packed.at(0)).toBeUndefined();
    expect([...packed]).toEqual([]);
  });

  it('keeps an empty key apart from its neighbours', () => {
    expect([...PackedKeys.of(['/a', '', '/b'])]).toEqual(['/a', '', '/b']);
  });
});
