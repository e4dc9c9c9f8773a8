import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The repository's import graph, type-only imports included (ESLint's `import-x/no-cycle` skips
 * them), read with TypeScript's own import scanner. `.astro` files are scanned whole: their
 * frontmatter and scripts hold their imports. Only relative imports are followed; packages are
 * leaves.
 */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.(ts|tsx|mts|js|mjs|astro)$/;
const SKIPPED = new Set(['node_modules', 'dist', '.astro', 'uploads', 'data', 'test-results', 'playwright-report']);
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx'];

function sourceFiles(root: string, folder: string, found: string[] = []): string[] {
  const dir = path.join(root, folder);
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) sourceFiles(root, relative, found);
    else if (SOURCE.test(entry.name)) found.push(relative);
  }
  return found;
}

function resolveRelative(root: string, from: string, specifier: string): string | null {
  const base = path.posix.join(path.posix.dirname(from), specifier);
  for (const suffix of RESOLVE_SUFFIXES) {
    const candidate = base + suffix;
    const full = path.join(root, candidate);
    if (fs.existsSync(full) && fs.statSync(full).isFile()) return candidate;
  }
  return null;
}

/** Every source file under `folders` (relative to `root`) with the files it imports. */
export function readImportGraph(root: string, folders: string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of folders.flatMap((folder) => sourceFiles(root, folder))) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveRelative(root, file, fileName.split('?')[0]!);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The circles: each strongly connected group of two or more files (Tarjan's algorithm). */
export function findCircles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) circles.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

/**
 * The layers of `src`, lowest first (docs/architecture.md#layers): a file may import its own
 * layer and the ones below. The first matching prefix names a file's layer; files outside `src`
 * (tests, scripts, benchmarks, migrations) sit above everything and are not checked.
 */
export const LAYERS: { name: string; prefixes: string[] }[] = [
  { name: 'shared', prefixes: ['src/shared/'] },
  {
    name: 'server roots',
    prefixes: ['src/server/config', 'src/server/errors', 'src/server/module-file', 'src/server/hit-store'],
  },
  { name: 'db', prefixes: ['src/server/db/'] },
  { name: 'endpoint kit, uploads', prefixes: ['src/server/api/', 'src/server/uploads/'] },
  { name: 'context', prefixes: ['src/server/context', 'src/server/ports'] },
  { name: 'page store, mail, shared caches', prefixes: ['src/server/page-store/', 'src/server/mail/', 'src/server/cdn/'] },
  { name: 'content services', prefixes: ['src/server/content/'] },
  {
    name: 'auth, seed, import, export, ops, metrics',
    prefixes: [
      'src/server/auth/',
      'src/server/seed/',
      'src/server/import/',
      'src/server/export/',
      'src/server/ops/',
      'src/server/metrics/',
    ],
  },
  { name: 'front server', prefixes: ['src/server/bootstrap', 'src/server/front/'] },
  {
    name: 'browser api',
    prefixes: [
      'src/client/http',
      'src/client/api',
      'src/client/account-api',
      'src/client/library-api',
      'src/client/revisions-api',
    ],
  },
  { name: 'browser stores', prefixes: ['src/stores/'] },
  { name: 'browser actions, editor', prefixes: ['src/client/library/', 'src/editor/'] },
  { name: 'components, layouts', prefixes: ['src/components/', 'src/layouts/'] },
  { name: 'routes', prefixes: ['src/pages/', 'src/middleware', 'src/fetch', 'src/env.d'] },
];

/** A file's layer number, or null outside `src` (and for a test beside the code, which may reach anywhere). */
export function layerOf(file: string): number | null {
  if (!file.startsWith('src/') || /\.test\.tsx?$/.test(file)) return null;
  const at = LAYERS.findIndex((layer) => layer.prefixes.some((prefix) => file.startsWith(prefix)));
  return at === -1 ? null : at;
}

/**
 * Imports that run back up the layers. The browser layers and the server ones are two stacks on
 * `shared`: a browser file importing the server is lint's business (and a bundle's), not counted here.
 */
export function findArrowsUp(graph: ImportGraph): { from: string; to: string }[] {
  const arrows: { from: string; to: string }[] = [];
  for (const [from, targets] of graph) {
    const fromLayer = layerOf(from);
    if (fromLayer === null) continue;
    for (const to of targets) {
      const toLayer = layerOf(to);
      if (toLayer !== null && toLayer > fromLayer) arrows.push({ from, to });
    }
  }
  return arrows;
}

/** Whether a file under `src` ships in the built server (tests and their helpers do not). */
function shipsInBuild(file: string): boolean {
  return file.startsWith('src/') && !/\.(test|spec)\.tsx?$/.test(file);
}

/**
 * Imports from shipped code into test or bench code: the build compiles `src` alone (plus the one
 * script it copies, require-node.mjs), so such an import is a file missing from the server at run time.
 */
export function findShippedImportsOfTests(graph: ImportGraph): { from: string; to: string }[] {
  const found: { from: string; to: string }[] = [];
  for (const [from, targets] of graph) {
    if (!shipsInBuild(from)) continue;
    for (const to of targets) if (/^(tests|bench)\//.test(to)) found.push({ from, to });
  }
  return found;
}
