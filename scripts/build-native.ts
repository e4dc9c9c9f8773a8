// Part of `npm run build`: the native modules (src/server/front/native/): malloc-trim.node and
// thread-idle.node. Optional: without a C compiler, Node's headers or glibc the build goes on and
// the server runs without them (memory-trim.ts, page-store/thread-idle.ts), so this never fails a
// build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type NativeBuild = { built: true; file: string } | { built: false; reason: string };

/** The native modules, each compiled from `src/server/front/native/<name>.c` to `<name>.node`. */
export type NativeModule = 'malloc-trim' | 'thread-idle';
export const NATIVE_MODULES: readonly NativeModule[] = ['malloc-trim', 'thread-idle'];

/** Directories holding Node's `node_api.h`: the running Node's own, the npm `node` package's, Debian's. */
export function nodeHeaderDirs(root: string, execPath = process.execPath): string[] {
  const packaged = path.join(root, 'node_modules', 'node', 'node_modules');
  const platformPackages = fs.existsSync(packaged)
    ? fs
        .readdirSync(packaged)
        .filter((name) => name.startsWith('node-'))
        .map((name) => path.join(packaged, name, 'include', 'node'))
    : [];
  return [
    path.join(path.dirname(execPath), '..', 'include', 'node'),
    ...platformPackages,
    '/usr/include/node',
    '/usr/local/include/node',
  ].filter((dir) => fs.existsSync(path.join(dir, 'node_api.h')));
}

/** Compiles `<name>.node` into `outDir`, or says why not. */
export function buildNative(root: string, outDir: string, name: NativeModule, compiler = process.env.CC || 'cc'): NativeBuild {
  if (process.platform !== 'linux') return { built: false, reason: `it calls Linux and glibc (this is ${process.platform})` };
  const headers = nodeHeaderDirs(root)[0];
  if (!headers) return { built: false, reason: "Node's headers (node_api.h) were not found" };
  const file = path.join(outDir, `${name}.node`);
  fs.mkdirSync(outDir, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  const result = spawnSync(
    compiler,
    [
      '-O2',
      '-shared',
      '-fPIC',
      '-fvisibility=hidden',
      `-I${headers}`,
      '-o',
      partial,
      path.join(root, 'src/server/front/native', `${name}.c`),
    ],
    { encoding: 'utf8' },
  );
  if (result.error) {
    return {
      built: false,
      reason: `no C compiler (${compiler}: ${(result.error as NodeJS.ErrnoException).code ?? result.error.message})`,
    };
  }
  if (result.status !== 0) {
    fs.rmSync(partial, { force: true });
    const firstLine = (result.stderr || result.stdout).split('\n').find((line) => line.trim()) ?? `exit ${result.status}`;
    return { built: false, reason: `${compiler} failed: ${firstLine.trim()}` };
  }
  fs.renameSync(partial, file);
  return { built: true, file };
}
