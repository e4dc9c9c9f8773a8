import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findArrowsUp, findCircles, findShippedImportsOfTests, readImportGraph } from './import-graph.ts';

/** `npm run lint`'s import checks (check-imports.ts) on a planted repository: each offence is found. */

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function plant(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('the import checks of npm run lint', () => {
  it('find a planted circle, a type-only one included, and a loop through three files', () => {
    const root = plant({
      'src/server/db/a.ts': "import { b } from './b.ts';\nexport const a = b;",
      'src/server/db/b.ts': "import type { A } from './a.ts';\nexport const b = 1; export type B = A;",
      'src/server/content/x.ts': "import './y.ts';",
      'src/server/content/y.ts': "import './z.ts';",
      'src/server/content/z.ts': "import './x.ts';",
      'src/server/content/alone.ts': "import '../db/a.ts';",
    });
    const circles = findCircles(readImportGraph(root, ['src']));
    expect(circles).toHaveLength(2);
    expect(circles).toContainEqual(['src/server/db/a.ts', 'src/server/db/b.ts']);
    expect(circles).toContainEqual(['src/server/content/x.ts', 'src/server/content/y.ts', 'src/server/content/z.ts']);
  });

  it('find an import back up the layers, and shipped code importing tests', () => {
    const root = plant({
      'src/server/db/reads.ts': "import { render } from '../content/render.ts';\nexport const reads = render;",
      'src/server/content/render.ts': "import { helper } from '../../../tests/support/helper.ts';\nexport const render = helper;",
      'src/server/content/render.test.ts': "import '../../../tests/support/helper.ts';",
      'tests/support/helper.ts': 'export const helper = 1;',
    });
    const graph = readImportGraph(root, ['src', 'tests']);
    expect(findCircles(graph)).toEqual([]);
    expect(findArrowsUp(graph)).toEqual([{ from: 'src/server/db/reads.ts', to: 'src/server/content/render.ts' }]);
    expect(findShippedImportsOfTests(graph)).toEqual([{ from: 'src/server/content/render.ts', to: 'tests/support/helper.ts' }]);
  });

  it('find nothing in this repository', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const graph = readImportGraph(root, ['src', 'db', 'scripts', 'bench', 'tests']);
    expect([findCircles(graph), findArrowsUp(graph), findShippedImportsOfTests(graph)]).toEqual([[], [], []]);
  });
});
