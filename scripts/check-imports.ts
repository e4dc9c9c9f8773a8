import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findArrowsUp, findCircles, readImportGraph } from './import-graph.ts';

/**
 * Part of `npm run lint`: no circle in the whole repository's imports (type-only ones included,
 * which ESLint's import-x/no-cycle skips) and no import back up the layers of `src`
 * (docs/architecture.md#layers). Prints each offence and exits 1 on any.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const graph = readImportGraph(root, ['src', 'db', 'scripts', 'bench', 'tests']);
const circles = findCircles(graph);
const arrowsUp = findArrowsUp(graph);

for (const circle of circles) console.error(`import circle: ${circle.join(' -> ')} -> ${circle[0]}`);
for (const { from, to } of arrowsUp) console.error(`import back up the layers: ${from} -> ${to}`);
console.log(`imports: ${graph.size} files, ${circles.length} circles, ${arrowsUp.length} arrows back up`);
if (circles.length + arrowsUp.length > 0) process.exit(1);
