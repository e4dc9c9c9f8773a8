import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

// The worker's helper is a classic script: run it as the worker would, in a scope with `self`.
const scope: { self: { chooseEvictions?: (index: Record<string, { size: number; at: number }>, limit: number) => string[] } } = {
  self: {},
};
vm.runInNewContext(fs.readFileSync(path.join(import.meta.dirname, '../../../public/sw-lru.js'), 'utf8'), scope);
const chooseEvictions = scope.self.chooseEvictions!;

describe('chooseEvictions (the read-lately cache bound)', () => {
  it('drops nothing within the bound', () => {
    expect(chooseEvictions({ '/a': { size: 40, at: 1 }, '/b': { size: 60, at: 2 } }, 100)).toEqual([]);
  });

  it('drops the least recently used first, only as many as needed', () => {
    const index = { '/new': { size: 50, at: 30 }, '/old': { size: 50, at: 10 }, '/mid': { size: 50, at: 20 } };
    expect(chooseEvictions(index, 100)).toEqual(['/old']);
    expect(chooseEvictions(index, 60)).toEqual(['/old', '/mid']);
  });

  it('drops an entry larger than the whole bound', () => {
    expect(chooseEvictions({ '/huge': { size: 500, at: 99 } }, 100)).toEqual(['/huge']);
  });
});
