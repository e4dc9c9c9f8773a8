import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isHandBuiltPath } from './site-paths.mjs';

/**
 * Part of `npm run lint`: the site-paths rule for `.astro` files, which ESLint does not read
 * (scripts/site-paths.mjs holds the addresses and says why). A text scan, so comments are cut
 * first; a quoted address compared with `===` or `!==` reads a request and is let through.
 * Prints each hand-built address and exits 1 on any.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function astroFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return astroFiles(full);
    return entry.name.endsWith('.astro') ? [full] : [];
  });
}

/** Comments become blanks of the same shape, so line numbers stay right. */
function withoutComments(text: string): string {
  const blank = (comment: string) => comment.replace(/[^\n]/g, ' ');
  return text
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/\/\*[\s\S]*?\*\//g, blank)
    .replace(/(^|[^:\\'"`])(\/\/.*)$/gm, (_, before: string, comment: string) => before + blank(comment));
}

// An address opens a quoted string, or follows a `${...}` inside a template.
const QUOTED_PATH = /(?<![!=]==?\s*)(?:["'`]|\})(\/[^"'`\s$]*)/g;

const offences: string[] = [];
for (const file of astroFiles(path.join(root, 'src'))) {
  if (file.startsWith(path.join(root, 'src', 'shared', 'site-map'))) continue;
  const lines = withoutComments(fs.readFileSync(file, 'utf8')).split('\n');
  lines.forEach((line, index) => {
    for (const match of line.matchAll(QUOTED_PATH)) {
      if (isHandBuiltPath(match[1]!))
        offences.push(`${path.relative(root, file)}:${index + 1}: '${match[1]}' is a public address built by hand`);
    }
  });
}
for (const offence of offences) console.error(offence);
if (offences.length > 0)
  console.error('Build public addresses with src/shared/site-map/paths.ts (articleHref, blogsHref, SITE_PAGES, ...).');
console.log(`site paths: ${offences.length} hand-built public addresses in .astro files`);
if (offences.length > 0) process.exit(1);
