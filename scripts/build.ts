// Builds the site with Astro. (The page store's pre-render runs at first start of the server.)
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const astro = path.resolve('node_modules/astro/bin/astro.mjs');
const started = Date.now();
const outDir = process.env.DIST_DIR ? ['--outDir', process.env.DIST_DIR] : [];
const result = spawnSync(process.execPath, [astro, 'build', ...outDir], { stdio: 'inherit', env: process.env });
if (result.status !== 0) process.exit(result.status ?? 1);
console.log(`Build finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
