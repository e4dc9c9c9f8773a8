import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createUnknownPathCheck, ROUTE_ROOTS } from './unknown-paths.ts';

const PAGES = path.resolve(import.meta.dirname, '../../pages');

/** The first segment of each route file under src/pages ('' for the home page); Astro skips `_` names. */
function pageRoots(): string[] {
  return fs
    .readdirSync(PAGES)
    .filter((name) => !name.startsWith('_'))
    .map((name) => {
      const bare = name.replace(/\.(astro|ts|tsx|md|mdx|js)$/, '');
      return bare === 'index' ? '' : bare;
    });
}

describe('ROUTE_ROOTS', () => {
  it('names every first segment src/pages routes, and nothing it does not (the catch-all aside)', () => {
    const roots = pageRoots();
    const dynamic = roots.filter((root) => root.startsWith('['));
    expect(dynamic).toEqual(['[...path]']);
    const fixed = roots.filter((root) => !root.startsWith('['));
    expect([...new Set(fixed)].sort()).toEqual(ROUTE_ROOTS.filter((root) => !root.startsWith('_')).sort());
  });
});

describe('createUnknownPathCheck', () => {
  const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-'));
  fs.writeFileSync(path.join(clientDir, 'favicon.svg'), '<svg/>');
  const isUnknown = createUnknownPathCheck(clientDir);

  it('claims a path whose first segment no route, file or front-server path has', () => {
    for (const url of [
      '/nope',
      '/nope/x1y2',
      '/no-such-page?x=1',
      '/downloads',
      '/a/b/c?x=1',
      '/wp-login.php',
      '/nope#x',
      '/.env',
      '/.git/config',
    ])
      expect(isUnknown(url), url).toBe(true);
  });

  it('leaves to Astro every path under a known first segment, files and odd segments', () => {
    for (const url of [
      '/',
      '/?page=2',
      '/blog/abc',
      '/blog',
      '/blogs?search=x',
      '/api/nope',
      '/admin/x',
      '/ADMIN',
      '/Api/nope',
      '/FAVICON.SVG',
      '/about/',
      '/robots.txt',
      '/_astro/x.js',
      '/uploads/x.png',
      '/healthz',
      '/favicon.svg',
      '/_image?href=x',
      '/%61bout',
      '/../about',
      '/./about',
      '//about',
    ])
      expect(isUnknown(url), url).toBe(false);
  });
});
