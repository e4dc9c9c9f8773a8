// `npm test`: build the site, then unit and integration tests (vitest), then browser tests (Playwright).
// Ends with the list of browser tests that needed a retry: a pass after a retry is still a flake.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function run(label: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  console.log(`\n=== ${label}`);
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  if (result.status !== 0) console.error(`\n${label} failed (exit ${result.status ?? result.signal}).`);
  return result.status ?? 1;
}

function runOrStop(label: string, args: string[]): void {
  const status = run(label, args);
  if (status !== 0) process.exit(status);
}

/** The retried tests tests/e2e/retry-reporter.ts wrote, one JSON object a line. */
function retriedTests(file: string): { test: string; outcome: string; attempts: number }[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { test: string; outcome: string; attempts: number });
}

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
runOrStop('build', ['scripts/build.ts']);
runOrStop('unit and integration tests', ['node_modules/vitest/vitest.mjs', 'run']);
if (!fs.existsSync(chromium)) {
  console.error(`\nChromium not found at ${chromium}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'study-site-test-all-'));
const retriedFile = path.join(scratch, 'retried.jsonl');
const status = run('browser tests', ['node_modules/@playwright/test/cli.js', 'test'], {
  ...process.env,
  E2E_RETRIED_FILE: retriedFile,
});
const retried = retriedTests(retriedFile);
fs.rmSync(scratch, { recursive: true, force: true });
console.log('\n=== browser tests that needed a retry');
if (retried.length === 0) console.log('none');
for (const { test, outcome, attempts } of retried)
  console.log(`${outcome === 'flaky' ? 'FLAKY (passed on a retry)' : 'FAILED'}: ${test} after ${attempts} attempts`);
process.exit(status);
