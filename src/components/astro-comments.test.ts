import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every .astro file under `dir`. */
function astroFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? astroFiles(path.join(dir, entry.name))
        : entry.name.endsWith('.astro')
          ? [path.join(dir, entry.name)]
          : [],
    );
}

describe('the .astro files', () => {
  it('name no script tag in their frontmatter, which the dev server would scan as a script and fail on', () => {
    const found = astroFiles('src').filter((file) => {
      const frontmatter = /^---\n([\s\S]*?)\n---/.exec(fs.readFileSync(file, 'utf8'))?.[1] ?? '';
      return /<script\b/i.test(frontmatter);
    });
    expect(found).toEqual([]);
  });
});
