import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPILED_MAIN } from '../../scripts/server-entry.mjs';
import { trackTempDirs } from '../support/temp-dirs.ts';

/**
 * Every entry a user runs stops with a clear message on a Node older than the project's (its
 * native modules, built for Node 22, crash an older Node with SIGSEGV): the compiled server run
 * directly, and each `node ...` command of the npm scripts run by whatever `node` is on the PATH.
 */

const root = path.resolve(import.meta.dirname, '../..');
const tempDir = trackTempDirs('study-site-node-version-');

/** A Node older than 22 on this machine (Debian's is 20), or null. */
function oldNode(): { file: string; version: string } | null {
  for (const file of ['/usr/bin/node', '/usr/bin/nodejs', '/usr/local/bin/node']) {
    if (!fs.existsSync(file)) continue;
    const version = spawnSync(file, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (Number(/^v(\d+)\./.exec(version)?.[1] ?? 99) < 22) return { file, version };
  }
  return null;
}

const old = oldNode();

/** Data folders of its own, so a check that failed to stop the run could not touch anything real. */
function isolatedEnv(binDir?: string): NodeJS.ProcessEnv {
  const dir = tempDir();
  return {
    PATH: [binDir, '/usr/local/bin', '/usr/bin', '/bin'].filter(Boolean).join(':'),
    HOME: dir,
    PORT: '0',
    DATABASE_PATH: path.join(dir, 'site.sqlite'),
    UPLOADS_DIR: path.join(dir, 'uploads'),
    PAGE_STORE_DIR: path.join(dir, 'pages'),
    DIST_DIR: path.join(root, 'dist'),
  };
}

function expectClearStop(result: ReturnType<typeof spawnSync>, what: string): void {
  const output = `${String(result.stdout)}${String(result.stderr)}`;
  expect(result.signal, `${what}: ${output}`).toBeNull();
  expect(result.status, `${what}: ${output}`).toBe(1);
  expect(output, what).toContain('This project needs Node 22 or newer');
  expect(output, what).toContain('node_modules/.bin/node');
}

describe.skipIf(old === null)(
  `on an older Node (${old?.file ?? 'none found: no Node older than 22 here'} ${old?.version ?? ''})`,
  () => {
    it('the compiled server stops with a message naming how to run it, not a crash', () => {
      const result = spawnSync(old!.file, [path.join(root, 'dist', COMPILED_MAIN)], {
        cwd: root,
        env: isolatedEnv(),
        encoding: 'utf8',
        timeout: 120_000,
      });
      expectClearStop(result, 'the compiled server');
    });

    it('every `node` command of the npm scripts stops the same way', () => {
      // `node` on the PATH is the older one, as when node_modules/.bin/node is missing.
      const bin = tempDir();
      fs.symlinkSync(old!.file, path.join(bin, 'node'));
      const scripts = (
        JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
      ).scripts;
      const commands = Object.entries(scripts).flatMap(([name, line]) =>
        line
          .split('&&')
          .map((part) => part.trim())
          .filter((part) => part.startsWith('node '))
          .map((command) => ({ name, command })),
      );
      expect(commands.map((c) => c.name)).toEqual(
        expect.arrayContaining(['start', 'serve', 'migrate', 'seed', 'admin', 'backup', 'restore']),
      );
      for (const { name, command } of commands) {
        const result = spawnSync('/bin/sh', ['-c', command], {
          cwd: root,
          env: isolatedEnv(bin),
          encoding: 'utf8',
          timeout: 120_000,
        });
        expectClearStop(result, `npm run ${name}: ${command}`);
      }
    });
  },
);
