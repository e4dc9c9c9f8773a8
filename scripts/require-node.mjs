// Plain JavaScript that any Node can load, imported first by every entry a user runs (the npm
// scripts load it with --import, the compiled server and `npm start` import it before anything
// else). The project's native modules (better-sqlite3) are built for the project's own Node, 22,
// installed in node_modules/.bin by the `node` package; an older Node loading them crashes with
// SIGSEGV instead of an error. This stops such a run with a message saying what to do.

const REQUIRED_MAJOR = 22;

/** Why `version` (process.versions.node) cannot run the project, or null when it can. */
export function nodeVersionProblem(version, execPath) {
  const major = Number(version.split('.')[0]);
  if (major >= REQUIRED_MAJOR) return null;
  return [
    `This project needs Node ${REQUIRED_MAJOR} or newer; this is Node ${version} (${execPath}).`,
    'Run it through npm (for example `npm start`, `npm run serve`, `npm run migrate`), which uses the',
    "project's own Node from node_modules/.bin, or call that Node directly: node_modules/.bin/node <file>.",
    'No node_modules/.bin/node? Run `npm install` first.',
  ].join('\n');
}

const problem = nodeVersionProblem(process.versions.node, process.execPath);
if (problem) {
  console.error(problem);
  process.exit(1);
}
