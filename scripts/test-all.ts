// `npm test`: build the site, then unit and integration tests (vitest), then browser tests (Playwright).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

function run(label: string, args: string[]): void {
  console.log(`\n=== ${label}`);
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env } });
  if (result.status !== 0) {
    console.error(`\n${label} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
run('build', ['scripts/build.ts']);
run('unit and integration tests', ['node_modules/vitest/vitest.mjs', 'run']);
if (!fs.existsSync(chromium)) {
  console.error(`\nChromium not found at ${chromium}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}
run('browser tests', ['node_modules/@playwright/test/cli.js', 'test']);
