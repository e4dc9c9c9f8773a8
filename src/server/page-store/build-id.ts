import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

/** The build's id: pages rendered by another build point at other asset hashes. */
export function readBuildId(distDir: string): string {
  const file = path.join(distDir, 'build-id.txt');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  return crypto
    .createHash('sha1')
    .update(fs.readFileSync(path.join(distDir, 'server/entry.mjs')))
    .digest('hex')
    .slice(0, 16);
}

/** Pages name the build's assets and the public origin: a change of either drops them. */
export function storeBuildId(config: Config): string {
  return `${readBuildId(config.distDir)}|${config.publicOrigin}`;
}
