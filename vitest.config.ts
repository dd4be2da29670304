import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each test file starts its own servers on port 0, so files can run in parallel workers.
    pool: 'forks',
    // Dates without an offset and activity steps use the server's local zone; pin it so results
    // do not depend on the machine's zone.
    env: { TZ: 'UTC' },
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
