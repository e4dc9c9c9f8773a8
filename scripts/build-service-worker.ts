import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles the service worker (src/client/library/service-worker.js, on Workbox) into one classic
 * script at `<clientDir>/sw.js`, the address the pages register, so registration and the front
 * server's headers for it stay as they were. Answers its size in bytes.
 */
export async function buildServiceWorker(clientDir: string): Promise<number> {
  const outfile = path.join(clientDir, 'sw.js');
  await build({
    entryPoints: [path.resolve('src/client/library/service-worker.js')],
    outfile,
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2022',
    // Workbox's development logging and assertions are left out, as in its own production builds.
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  return fs.statSync(outfile).size;
}
