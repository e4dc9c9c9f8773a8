import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildNative, nodeHeaderDirs } from './build-native.ts';
import { loadMallocTrim } from '../src/server/front/memory-trim.ts';
import { loadThreadIdler } from '../src/server/page-store/thread-idle.ts';
import { hasSysNice, SCHED_IDLE, SCHED_OTHER, schedulingPolicyOf } from '../tests/support/scheduling.ts';

const root = process.cwd();
const hasCompiler = !spawnSync(process.env.CC || 'cc', ['--version']).error;
let dist: string | undefined;
const tempDist = () => (dist = fs.mkdtempSync(path.join(os.tmpdir(), 'native-dist-')));
const canBuild = process.platform === 'linux' && hasCompiler && nodeHeaderDirs(root).length > 0;

describe('buildNative', () => {
  afterEach(() => dist && fs.rmSync(dist, { recursive: true, force: true }));

  it.runIf(canBuild)('builds a module the server loads, whose trim answers whether memory went back', () => {
    const out = tempDist();
    const built = buildNative(root, path.join(out, 'native'), 'malloc-trim');
    expect(built).toEqual({ built: true, file: path.join(out, 'native', 'malloc-trim.node') });
    const trim = loadMallocTrim(out);
    expect(trim).toBeTypeOf('function');
    expect(typeof trim!()).toBe('boolean');
  });

  it.runIf(canBuild)('builds a module whose setIdle moves a thread into idle time and back', () => {
    const out = tempDist();
    const built = buildNative(root, path.join(out, 'native'), 'thread-idle');
    expect(built).toEqual({ built: true, file: path.join(out, 'native', 'thread-idle.node') });
    const setIdle = loadThreadIdler(out);
    expect(setIdle).toBeTypeOf('function');
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const policy = () => schedulingPolicyOf(`/proc/${sleeper.pid}/stat`);
      expect(policy()).toBe(SCHED_OTHER);
      expect(setIdle!(sleeper.pid!, true)).toBe(true);
      expect(policy()).toBe(SCHED_IDLE);
      // Out of idle time is the privileged direction; refused, it answers false.
      expect(setIdle!(sleeper.pid!, false)).toBe(hasSysNice());
      if (hasSysNice()) expect(policy()).toBe(SCHED_OTHER);
      expect(setIdle!(2 ** 30, true)).toBe(false);
    } finally {
      sleeper.kill();
    }
  });

  it('says why and leaves no file when there is no compiler', () => {
    const out = tempDist();
    const built = buildNative(root, path.join(out, 'native'), 'thread-idle', 'no-such-cc-here');
    expect(built.built).toBe(false);
    if (!built.built)
      expect(built.reason).toMatch(process.platform === 'linux' ? /no C compiler \(no-such-cc-here: ENOENT\)|headers/ : /Linux/);
    const native = path.join(out, 'native');
    expect(fs.existsSync(native) ? fs.readdirSync(native) : []).toEqual([]);
  });
});
