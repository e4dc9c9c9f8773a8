import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The lint rule keeps src/server out of browser-side .ts/.tsx files; ESLint does not read .astro
 * files, so this checks their client scripts (the <script> blocks Astro bundles for the browser)
 * the same way. Frontmatter runs on the server and may import anything.
 */

const root = join(import.meta.dirname, '..');
const SERVER_PATH = /(^|\/)server(\/|$)/;

function astroFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return astroFiles(path);
    return entry.name.endsWith('.astro') ? [path] : [];
  });
}

function findServerImportsInScripts(source: string): string[] {
  const found: string[] = [];
  for (const [, attributes, body] of source.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\b(is:inline|set:html|type=)/.test(attributes ?? '')) continue;
    for (const [, specifier] of (body ?? '').matchAll(/\bimport\b[^'"]*?['"]([^'"]+)['"]/g)) {
      if (specifier && SERVER_PATH.test(specifier)) found.push(specifier);
    }
  }
  return found;
}

describe('browser scripts in .astro files', () => {
  it('finds a server import in a client script, and none in frontmatter', () => {
    const page = "---\nimport { x } from '../server/a.ts';\n---\n<script>\n  import { y } from '../server/b.ts';\n</script>";
    expect(findServerImportsInScripts(page)).toEqual(['../server/b.ts']);
  });

  it('none of them imports src/server', () => {
    const offenders = astroFiles(root).flatMap((file) =>
      findServerImportsInScripts(readFileSync(file, 'utf8')).map((specifier) => `${relative(root, file)}: ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });
});
