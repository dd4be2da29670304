import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each test file starts its own servers on port 0, so files can run in parallel workers.
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
