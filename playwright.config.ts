import { defineConfig } from '@playwright/test';

// Debian's Chromium: Playwright must never download a browser of its own here.
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  // The gallery (every screen x 4 widths x 2 themes x 3 roles x 3 sites) runs on its own:
  // `npm run gallery`. It is too long for every `npm test`.
  testIgnore: process.env.GALLERY_DIR ? [] : ['**/gallery.spec.ts'],
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  // A retry is allowed in CI, never hidden: tests/e2e/retry-reporter.ts lists every retried test.
  retries: process.env.CI ? 1 : 0,
  // Hang guards, not budgets: a test that is right passes on a machine busy with other work.
  timeout: 600_000,
  expect: { timeout: 60_000 },
  reporter: [['list'], ['./tests/e2e/retry-reporter.ts']],
  use: {
    baseURL: process.env.E2E_ORIGIN,
    trace: 'off',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
