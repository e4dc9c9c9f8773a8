// `npm start`: builds when the build is missing or older than the sources, then runs the server.
// First, before any module that loads a native one: stop on a Node too old to run the project.
import './require-node.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { COMPILED_MAIN } from './server-entry.mjs';

const entry = path.resolve(process.env.DIST_DIR || 'dist', COMPILED_MAIN);
const sources = ['src', 'public', 'db/migrations', 'astro.config.mjs', 'package-lock.json'];

/** @param {string} target */
function newestMtime(target) {
  /** @type {fs.Stats} */
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, name)));
  return newest;
}

const builtAt = fs.existsSync(entry) ? fs.statSync(entry).mtimeMs : 0;
const changedAt = Math.max(...sources.map(newestMtime));
if (builtAt < changedAt) {
  console.log(builtAt ? 'Sources changed since the last build: building...' : 'No build yet: building...');
  const result = spawnSync(process.execPath, ['scripts/build.ts'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// The compiled server: the same code as src/, without Node's per-thread type-stripping compiler.
await import(pathToFileURL(path.resolve(process.env.DIST_DIR || 'dist', COMPILED_MAIN)).href);
