import { afterEach, describe, expect, it } from 'vitest';
import {
  noteSiblingWriteTrouble,
  noteWriteFailed,
  noteWriteWorked,
  shareWriteTroubles,
  writeTroubles,
  type WriteTrouble,
} from './write-health.ts';

const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
const quiet = () => undefined;

afterEach(() => {
  shareWriteTroubles(null);
  for (const file of [...writeTroubles().keys()]) noteWriteWorked(file, quiet);
});

describe('write troubles shared with sibling processes', () => {
  it('tells the siblings when a trouble starts and when it ends, once each', () => {
    const told: Array<[string, WriteTrouble | null]> = [];
    shareWriteTroubles((file, trouble) => told.push([file, trouble]));
    noteWriteFailed('/data/site.sqlite', full, quiet);
    noteWriteFailed('/data/site.sqlite', full, quiet);
    noteWriteWorked('/data/site.sqlite', quiet);
    noteWriteWorked('/data/site.sqlite', quiet);
    expect(told).toEqual([
      ['/data/site.sqlite', 'disk full'],
      ['/data/site.sqlite', null],
    ]);
  });

  it('keeps a sibling’s trouble as its own until told it ended, without telling it on', () => {
    const told: unknown[] = [];
    shareWriteTroubles((...news) => told.push(news));
    noteSiblingWriteTrouble('/data/site.sqlite', 'disk full');
    expect(writeTroubles().get('/data/site.sqlite')).toBe('disk full');
    noteSiblingWriteTrouble('/data/site.sqlite', null);
    expect(writeTroubles().size).toBe(0);
    expect(told).toEqual([]);
  });

  it('a write that works here ends a trouble a sibling reported, and says so to the siblings', () => {
    const told: Array<[string, WriteTrouble | null]> = [];
    shareWriteTroubles((file, trouble) => told.push([file, trouble]));
    noteSiblingWriteTrouble('/data/site.sqlite', 'disk full');
    noteWriteWorked('/data/site.sqlite', quiet);
    expect(writeTroubles().size).toBe(0);
    expect(told).toEqual([['/data/site.sqlite', null]]);
  });
});
