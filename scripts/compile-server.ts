// Part of `npm run build`: the server's TypeScript (src/, db/) as plain JavaScript under
// <dist>/node/, same layout, for `npm start` and the benchmarks.
//
// Why: Node strips types with a WebAssembly compiler that every thread loading a .ts file
// instantiates for itself and never frees: about 13 MB for a process's first thread and 8 MB for
// each worker thread. The server runs a first process, and per serving process a serving thread, a
// render worker and a search worker: about 70 MB of a 2-process server's memory. Only types are
// removed (the sources use erasable syntax only), so the output runs exactly as the sources do.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCES = ['src', 'db'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    // .tsx, .astro and tests never run under Node: Astro's bundle holds the pages.
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Writes every server module to `outDir` as JavaScript; returns how many. */
export function compileServer(root: string, outDir: string): number {
  fs.rmSync(outDir, { recursive: true, force: true });
  let count = 0;
  for (const source of SOURCES.flatMap((dir) => sourceFiles(path.join(root, dir)))) {
    const relative = path.relative(root, source);
    const { outputText, diagnostics } = ts.transpileModule(fs.readFileSync(source, 'utf8'), {
      fileName: relative,
      reportDiagnostics: true,
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2023,
        verbatimModuleSyntax: true,
        rewriteRelativeImportExtensions: true,
        sourceMap: false,
      },
    });
    if (diagnostics && diagnostics.length > 0) {
      const message = ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, '\n');
      throw new Error(`${relative}: ${message}`);
    }
    const target = path.join(outDir, relative.replace(/\.ts$/, '.js'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, outputText);
    count++;
  }
  // The Node version check the server's entry imports first, at the same place relative to it.
  fs.mkdirSync(path.join(outDir, 'scripts'), { recursive: true });
  fs.copyFileSync(path.join(root, 'scripts/require-node.mjs'), path.join(outDir, 'scripts/require-node.mjs'));
  // Node reads "type": "module" from the nearest package.json: the output is ES modules.
  fs.writeFileSync(path.join(outDir, 'package.json'), '{ "type": "module" }\n');
  return count;
}
