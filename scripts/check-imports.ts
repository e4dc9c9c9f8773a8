import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findArrowsUp, findCircles, findShippedImportsOfTests, readImportGraph } from './import-graph.ts';

/**
 * Part of `npm run lint`: no circle in the whole repository's imports (type-only ones included,
 * which ESLint's import-x/no-cycle skips) and no import back up the layers of `src`
 * (docs/architecture.md#layers), and no shipped file importing tests or benches (the
 * build compiles `src` alone). Prints each offence and exits 1 on any.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const graph = readImportGraph(root, ['src', 'db', 'scripts', 'bench', 'tests']);
const circles = findCircles(graph);
const arrowsUp = findArrowsUp(graph);
const shippedToTests = findShippedImportsOfTests(graph);

for (const circle of circles) console.error(`import circle: ${circle.join(' -> ')} -> ${circle[0]}`);
for (const { from, to } of arrowsUp) console.error(`import back up the layers: ${from} -> ${to}`);
for (const { from, to } of shippedToTests) console.error(`shipped code imports test code: ${from} -> ${to}`);
console.log(
  `imports: ${graph.size} files, ${circles.length} circles, ${arrowsUp.length} arrows back up, ` +
    `${shippedToTests.length} shipped imports of tests`,
);
if (circles.length + arrowsUp.length + shippedToTests.length > 0) process.exit(1);
