import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPILED_MAIN } from '../../scripts/server-entry.mjs';

// The build compiles the server to plain JavaScript (scripts/compile-server.ts) so no thread loads
// Node's type stripper; every other integration test runs that compiled server.
const distDir = path.resolve(import.meta.dirname, '../..', process.env.DIST_DIR || 'dist');
const compiledDir = path.join(distDir, 'node');

function compiledFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? compiledFiles(full) : entry.name.endsWith('.js') ? [full] : [];
  });
}

describe('the compiled server', () => {
  it('imports only JavaScript, and every worker or child it starts exists as JavaScript', () => {
    expect(fs.existsSync(path.join(distDir, COMPILED_MAIN))).toBe(true);
    const files = compiledFiles(compiledDir);
    expect(files.length).toBeGreaterThan(100);
    const tsImports: string[] = [];
    const missing: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [, specifier] of text.matchAll(/(?:from|import\()\s*["'](\.{1,2}\/[^"']+)["']/g)) {
        if (!specifier!.endsWith('.js')) tsImports.push(`${path.relative(compiledDir, file)}: ${specifier}`);
        else if (!fs.existsSync(path.resolve(path.dirname(file), specifier!))) missing.push(`${file}: ${specifier}`);
      }
      for (const [, name] of text.matchAll(/siblingModuleUrl\(import\.meta\.url, ["'](\.\/[^"']+)["']\)/g)) {
        if (!fs.existsSync(path.resolve(path.dirname(file), `${name}.js`))) missing.push(`${file}: ${name}`);
      }
    }
    expect(tsImports).toEqual([]);
    expect(missing).toEqual([]);
    // Worker entry points really go through siblingModuleUrl (a literal './x.ts' would load the stripper).
    const workers = files.filter((file) =>
      /siblingModuleUrl\(import\.meta\.url, ["']\.\/[\w-]+-worker["']\)/.test(fs.readFileSync(file, 'utf8')),
    );
    expect(workers.map((file) => path.basename(file)).sort()).toEqual(['pdf-text.js', 'render-workers.js', 'search-pool.js']);
  });
});
