import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Lists every browser test that needed a retry, passed in the end or not, so a retry never hides
 * a flake. Printed after the run; with E2E_RETRIED_FILE set, also written there as JSON lines of
 * `{ test, outcome, attempts }` for `npm test` (scripts/test-all.ts) to repeat at its end.
 */
export default class RetryReporter implements Reporter {
  private readonly retried = new Map<TestCase, number>();
  private rootDir = process.cwd();

  onBegin(config: FullConfig): void {
    this.rootDir = config.rootDir;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.retry > 0) this.retried.set(test, result.retry + 1);
  }

  onEnd(_result: FullResult): void {
    const lines = [...this.retried].map(([test, attempts]) => ({
      test: `${path.relative(this.rootDir, test.location.file)}:${test.location.line} › ${test.titlePath().filter(Boolean).slice(1).join(' › ')}`,
      outcome: test.outcome(),
      attempts,
    }));
    const file = process.env.E2E_RETRIED_FILE;
    if (file) fs.writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + (lines.length ? '\n' : ''));
    if (lines.length === 0) {
      console.log('\nRetried browser tests: none.');
      return;
    }
    console.log(`\nRetried browser tests (${lines.length}): a pass after a retry is a flake to fix.`);
    for (const line of lines)
      console.log(`  ${line.outcome === 'flaky' ? 'FLAKY ' : 'FAILED'} ${line.test} (${line.attempts} attempts)`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
