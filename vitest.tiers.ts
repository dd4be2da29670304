import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * The suite in three tiers, each its own `npm run test:<tier>`; `npm test` (and `npm run check`)
 * runs them all with full property runs. test/README.md says which folder is in which tier, and
 * test/layout.test.ts checks that every test file is in one.
 */
export const TIERS = {
  /** In process, no servers, a few property cases each: the loop to run while editing. */
  unit: ['test/unit/**/*.test.ts', 'test/*.test.ts'],
  /** The real server over HTTP: routes, roles, problems, attacks, Subsonic, history. */
  api: [
    'test/api/**/*.test.ts',
    'test/security/**/*.test.ts',
    'test/subsonic/**/*.test.ts',
    'test/history/**/*.test.ts',
  ],
  /** Fuzzing, kill -9, the page in Chromium, and the property tests with all their cases. */
  slow: ['test/fuzz/**/*.test.ts', 'test/crash/**/*.test.ts', 'test/e2e/**/*.test.ts', ...propertyTests()],
} as const;

export type Tier = keyof typeof TIERS;

/** The unit tests that use fast-check: the slow tier runs them with every case they ask for. */
export function propertyTests(): string[] {
  const root = join(import.meta.dirname, 'test', 'unit');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) => /from 'fast-check'/.test(readFileSync(join(root, file), 'utf8')))
    .map((file) => `test/unit/${file.split('\\').join('/')}`)
    .sort();
}

/** Property cases the unit tier runs per property unless MELON_PROPERTY_RUNS says otherwise. */
const QUICK_PROPERTY_RUNS = '20';

export function tierConfig(tier: Tier | 'all'): ViteUserConfig {
  const quick = tier === 'unit';
  return defineConfig({
    test: {
      include: tier === 'all' ? ['test/**/*.test.ts'] : [...TIERS[tier]],
      testTimeout: 30_000,
      hookTimeout: 120_000,
      // Each test file starts its own servers on port 0, so files can run in parallel workers.
      pool: 'forks',
      env: {
        // Dates without an offset and activity steps use the server's local zone; pin it so
        // results do not depend on the machine's zone.
        TZ: 'UTC',
        MELON_PROPERTY_RUNS: process.env.MELON_PROPERTY_RUNS ?? (quick ? QUICK_PROPERTY_RUNS : 'full'),
      },
      reporters: ['default', './test/support/summary-reporter.ts'],
    },
  });
}
