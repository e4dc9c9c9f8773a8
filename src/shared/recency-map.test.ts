import { describe, expect, it } from 'vitest';
import { RecencyMap } from './recency-map.ts';

const filled = (n: number) => {
  const map = new RecencyMap<string, number>();
  for (let i = 0; i < n; i++) map.set(`k${i}`, i);
  return map;
};

describe('a map in order of use', () => {
  it('lists its keys least recently used first', () => {
    const map = filled(4);
    expect([...map.keys()]).toEqual(['k0', 'k1', 'k2', 'k3']);
    expect(map.oldest()).toBe('k0');
    expect([...map]).toEqual([
      ['k0', 0],
      ['k1', 1],
      ['k2', 2],
      ['k3', 3],
    ]);
  });

  it('moves a key used in the older half to the newest end, and leaves one in the newer half in place', () => {
    const map = filled(10);
    // Used a thousand times in the newer half: not moved each time (V8 would keep every move in the key's hash chain).
    for (let i = 0; i < 1000; i++) expect(map.get('k7')).toBe(7);
    expect([...map.keys()]).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9']);
    expect(map.get('k2')).toBe(2);
    expect(map.oldest()).toBe('k0');
    expect([...map.keys()].at(-1)).toBe('k2');
    map.set('k1', 11);
    expect([...map.keys()].slice(-2)).toEqual(['k2', 'k1']);
    expect(map.get('k1')).toBe(11);
  });

  it('keeps a key used often while newer keys used once pass through', () => {
    const map = new RecencyMap<string, number>();
    for (let i = 0; i < 5000; i++) {
      map.set(`k${i}`, i);
      map.get('hot');
      if (i === 0) map.set('hot', -1);
      if (map.size > 100) map.delete(map.oldest()!);
    }
    expect(map.peek('hot')).toBe(-1);
    expect(map.size).toBe(100);
  });

  it('changes a value in place with update, and peeks without marking it used', () => {
    const map = filled(4);
    expect(map.update('k0', 10)).toBe(true);
    expect(map.update('absent', 1)).toBe(false);
    expect(map.peek('k0')).toBe(10);
    expect(map.oldest()).toBe('k0');
    expect(map.has('absent')).toBe(false);
    expect(map.delete('k0')).toBe(true);
    expect(map.oldest()).toBe('k1');
    map.clear();
    expect(map.size).toBe(0);
    expect(map.oldest()).toBeUndefined();
  });
});
