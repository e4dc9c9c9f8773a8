import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildMallocTrim, nodeHeaderDirs } from './build-native.ts';
import { loadMallocTrim } from '../src/server/front/memory-trim.ts';

const root = process.cwd();
const hasCompiler = !spawnSync(process.env.CC || 'cc', ['--version']).error;
let dist: string | undefined;
const tempDist = () => (dist = fs.mkdtempSync(path.join(os.tmpdir(), 'native-dist-')));

describe('buildMallocTrim', () => {
  afterEach(() => dist && fs.rmSync(dist, { recursive: true, force: true }));

  it.runIf(process.platform === 'linux' && hasCompiler && nodeHeaderDirs(root).length > 0)(
    'builds a module the server loads, whose trim answers whether memory went back',
    () => {
      const out = tempDist();
      const built = buildMallocTrim(root, path.join(out, 'native'));
      expect(built).toEqual({ built: true, file: path.join(out, 'native', 'malloc-trim.node') });
      const trim = loadMallocTrim(out);
      expect(trim).toBeTypeOf('function');
      expect(typeof trim!()).toBe('boolean');
    },
  );

  it('says why and leaves no file when there is no compiler', () => {
    const out = tempDist();
    const built = buildMallocTrim(root, path.join(out, 'native'), 'no-such-cc-here');
    expect(built.built).toBe(false);
    if (!built.built)
      expect(built.reason).toMatch(process.platform === 'linux' ? /no C compiler \(no-such-cc-here: ENOENT\)|headers/ : /glibc/);
    const native = path.join(out, 'native');
    expect(fs.existsSync(native) ? fs.readdirSync(native) : []).toEqual([]);
  });
});
