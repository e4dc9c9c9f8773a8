import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { trackTempDirs } from '../support/temp-dirs.ts';

/**
 * A browser test that passed only on a retry is never hidden: tests/e2e/retry-reporter.ts lists
 * it after the run and writes it where `npm test` reads it to repeat at its end. Run on a fixture
 * whose one test fails its first attempt (no browser needed).
 */

const root = path.resolve(import.meta.dirname, '../..');
const tempDir = trackTempDirs('study-site-retry-reporter-');

it('lists a test that passed only on its retry, and only that one', { timeout: 900_000 }, () => {
  const dir = tempDir();
  const retriedFile = path.join(dir, 'retried.jsonl');
  const result = spawnSync(
    process.execPath,
    [
      'node_modules/@playwright/test/cli.js',
      'test',
      '--config',
      'tests/integration/fixtures/retried-browser-test/playwright.config.ts',
    ],
    {
      cwd: root,
      env: { ...process.env, RETRY_MARKER: path.join(dir, 'first-attempt-done'), E2E_RETRIED_FILE: retriedFile, CI: '' },
      encoding: 'utf8',
      // A hang guard: Playwright starts a worker per attempt, slow on a busy machine.
      timeout: 840_000,
    },
  );
  const output = `${result.stdout}${result.stderr}`;
  // A flaky pass still passes the run: the listing is what makes it visible.
  expect(result.status, output).toBe(0);
  expect(output).toMatch(/Retried browser tests \(1\)/);
  const listing = output.slice(output.indexOf('Retried browser tests'));
  expect(listing).toMatch(/FLAKY +flaky\.spec\.ts:\d+ › passes only on its retry \(2 attempts\)/);
  // The test that passed at once is in Playwright's own lines above, never in the listing.
  expect(listing).not.toMatch(/passes at once/);
  const lines = fs
    .readFileSync(retriedFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { test: string; outcome: string; attempts: number });
  expect(lines).toEqual([{ test: expect.stringMatching(/› passes only on its retry$/), outcome: 'flaky', attempts: 2 }]);
});
