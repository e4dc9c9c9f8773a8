import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadMallocTrim, QUIET_CPU_SHARE, startQuietTrim } from './memory-trim.ts';

const CHECK_MS = 1_000;

/** A process whose CPU time the test spends: `busy(share)` before each check. */
function fakeProcess() {
  let cpu = 0;
  return {
    cpuMicros: () => cpu,
    spend: (share: number) => (cpu += share * CHECK_MS * 1000),
  };
}

describe('startQuietTrim', () => {
  afterEach(() => vi.useRealTimers());

  it('trims once when a burst of work is over, never while it lasts, and not again until the next', () => {
    vi.useFakeTimers();
    const proc = fakeProcess();
    const trim = vi.fn(() => true);
    const stop = startQuietTrim({ trim, cpuMicros: proc.cpuMicros, checkMs: CHECK_MS });
    const check = (share: number) => {
      proc.spend(share);
      vi.advanceTimersByTime(CHECK_MS);
    };

    for (let i = 0; i < 5; i++) check(1.5); // a pre-render: both cores busy
    expect(trim).not.toHaveBeenCalled();
    check(0);
    expect(trim).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 5; i++) check(QUIET_CPU_SHARE / 2); // a few readers: quiet, already trimmed
    expect(trim).toHaveBeenCalledTimes(1);
    check(0.6); // readers again
    expect(trim).toHaveBeenCalledTimes(1);
    check(0.01);
    expect(trim).toHaveBeenCalledTimes(2);

    stop();
    check(0.9);
    check(0);
    expect(trim).toHaveBeenCalledTimes(2);
  });

  it('counts the start as a burst: a quiet process trims at its first check', () => {
    vi.useFakeTimers();
    const proc = fakeProcess();
    const trim = vi.fn(() => false);
    const stop = startQuietTrim({ trim, cpuMicros: proc.cpuMicros, checkMs: CHECK_MS });
    vi.advanceTimersByTime(CHECK_MS);
    expect(trim).toHaveBeenCalledTimes(1);
    stop();
  });
});

describe('loadMallocTrim', () => {
  it('is null when the build made no module, or made one that does not load here', () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'trim-dist-'));
    try {
      expect(loadMallocTrim(dist)).toBeNull();
      fs.mkdirSync(path.join(dist, 'native'));
      fs.writeFileSync(path.join(dist, 'native', 'malloc-trim.node'), 'not a shared object');
      expect(loadMallocTrim(dist)).toBeNull();
    } finally {
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
