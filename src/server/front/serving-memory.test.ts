import { describe, expect, it } from 'vitest';
import { boundHeapGrowth, servingV8Flags } from './serving-memory.ts';

describe('serving-memory', () => {
  it('adds the young generation and heap growth limits after the primary flags', () => {
    expect(servingV8Flags(['--enable-source-maps'])).toEqual([
      '--enable-source-maps',
      '--max-semi-space-size=2',
      '--heap-growing-percent=40',
    ]);
  });

  it('leaves a flag the operator gave the primary as it is, in either spelling', () => {
    expect(servingV8Flags(['--heap-growing-percent=100'])).toEqual(['--heap-growing-percent=100', '--max-semi-space-size=2']);
    expect(servingV8Flags(['--max_semi_space_size=16'])).toEqual(['--max_semi_space_size=16', '--heap-growing-percent=40']);
    expect(servingV8Flags(['--max-semi-space-size', '16'])).toEqual(['--max-semi-space-size', '16', '--heap-growing-percent=40']);
  });

  it('sets the heap growth in a process whose command line did not name it, and only there', () => {
    const set: string[] = [];
    expect(boundHeapGrowth(['--enable-source-maps'], (flags) => set.push(flags))).toBe('--heap-growing-percent=40');
    expect(boundHeapGrowth(['--heap_growing_percent=90'], (flags) => set.push(flags))).toBeNull();
    expect(set).toEqual(['--heap-growing-percent=40']);
  });
});
