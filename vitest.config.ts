import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'db/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          // Hang guards, not budgets: a test that is right passes on a machine busy with other work.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          // A GET whose kept-alive connection was reset is sent once more, as a browser does.
          setupFiles: ['tests/integration/fetch-retry-setup.ts'],
          // Hang guards, not budgets (each file starts a real server and pre-renders the site).
          // (the same as tests/support/wait.ts's HANG_GUARD_MS; a start and pre-render in a hook may take two).
          testTimeout: 600_000,
          hookTimeout: 1_200_000,
          // Each file starts its own server; two cores run two at a time.
          maxWorkers: 2,
        },
      },
    ],
  },
});
