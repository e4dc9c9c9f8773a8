// Part of `npm run build`: the one native module, malloc-trim.node (src/server/front/native/).
// Optional: without a C compiler, Node's headers or glibc the build goes on and the server runs
// without it (memory-trim.ts), so this never fails a build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type NativeBuild = { built: true; file: string } | { built: false; reason: string };

const SOURCE = 'src/server/front/native/malloc-trim.c';

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

/** Compiles malloc-trim.node into `outDir`, or says why not. */
export function buildMallocTrim(root: string, outDir: string, compiler = process.env.CC || 'cc'): NativeBuild {
  if (process.platform !== 'linux') return { built: false, reason: `malloc_trim is glibc's (this is ${process.platform})` };
  const headers = nodeHeaderDirs(root)[0];
  if (!headers) return { built: false, reason: "Node's headers (node_api.h) were not found" };
  const file = path.join(outDir, 'malloc-trim.node');
  fs.mkdirSync(outDir, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  const result = spawnSync(
    compiler,
    ['-O2', '-shared', '-fPIC', '-fvisibility=hidden', `-I${headers}`, '-o', partial, path.join(root, SOURCE)],
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
