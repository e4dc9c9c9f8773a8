// `npm run build`: builds the site with Astro, then pre-renders every public page into the page
// store when a database exists (on a fresh machine the first start seeds it and pre-renders).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const astro = path.resolve('node_modules/astro/bin/astro.mjs');
const started = Date.now();
const outDir = process.env.DIST_DIR ? ['--outDir', process.env.DIST_DIR] : [];
const result = spawnSync(process.execPath, [astro, 'build', ...outDir], { stdio: 'inherit', env: process.env });
if (result.status !== 0) process.exit(result.status ?? 1);
// A new id per build: stored pages of an older build are dropped, as they name old asset hashes.
const distDir = path.resolve(process.env.DIST_DIR || 'dist');
fs.writeFileSync(path.join(distDir, 'build-id.txt'), `${Date.now().toString(36)}-${crypto.randomBytes(6).toString('hex')}\n`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const { buildServiceWorker } = await import('./build-service-worker.ts');
const workerBytes = await buildServiceWorker(path.join(distDir, 'client'));
console.log(
  `Bundled the service worker into ${path.relative(process.cwd(), path.join(distDir, 'client', 'sw.js'))} (${kb(workerBytes)})`,
);
const { compileServer } = await import('./compile-server.ts');
const compiled = compileServer(process.cwd(), path.join(distDir, 'node'));
console.log(`Compiled ${compiled} server modules to ${path.relative(process.cwd(), path.join(distDir, 'node'))}`);
// Hashed assets are compressed once here; the front server sends the .br/.gz a reader accepts.
const { precompressAssets } = await import('../src/server/front/precompress.ts');
const packed = await precompressAssets(path.join(distDir, 'client', '_astro'));
console.log(
  `Precompressed ${packed.files} assets: ${kb(packed.bytes)} -> brotli ${kb(packed.brBytes)}, gzip ${kb(packed.gzipBytes)}`,
);
const { buildNative, NATIVE_MODULES } = await import('./build-native.ts');
const nativeUses = {
  'malloc-trim': 'gives memory back after a burst of work',
  'thread-idle': "runs the background refresh in the machine's idle time while it keeps its pace",
} as const;
const nativeLacks = {
  'malloc-trim': 'keeping more memory after a burst of work',
  'thread-idle': "its background refresh taking readers' time at a low priority instead",
} as const;
for (const name of NATIVE_MODULES) {
  const native = buildNative(process.cwd(), path.join(distDir, 'native'), name);
  console.log(
    native.built
      ? `Built ${path.relative(process.cwd(), native.file)} (${nativeUses[name]})`
      : `Skipped the native ${name} module: ${native.reason}. The server runs without it, ${nativeLacks[name]}.`,
  );
}
console.log(`Build finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const { loadConfig } = await import('../src/server/config.ts');
const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1' });
if (process.env.PRERENDER !== '0' && fs.existsSync(config.databasePath)) {
  const { startSite } = await import('../src/server/front/site.ts');
  const site = await startSite(config, () => {});
  const { describePrerender } = await import('../src/server/page-store/prerender-summary.ts');
  console.log(describePrerender([await site.prerender()], config.pageStoreMaxMb));
  await site.close();
}
