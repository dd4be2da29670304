import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * The suite in three tiers, each its own `npm run test:<tier>`; `npm test` (and `npm run check`)
 * runs them all with full property runs. test/README.md says which folder is in which tier, and
 * test/layout.test.ts checks that every test file is in one.
 */
const ROOT = import.meta.dirname;

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
  return unitFilesMatching(/from 'fast-check'/);
}

/** The test files of test/unit/ whose text matches `pattern`, as paths from the repository's root. */
function unitFilesMatching(pattern: RegExp): string[] {
  return readdirSync(join(ROOT, 'test', 'unit'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `test/unit/${file.split('\\').join('/')}`)
    .filter((file) => pattern.test(readFileSync(join(ROOT, file), 'utf8')))
    .sort();
}

/**
 * The test files that replace a module with `vi.mock`: they need a module registry of their own,
 * since a module an earlier file imported keeps the real one it bound to.
 */
export function moduleMockingTests(): string[] {
  return unitFilesMatching(/\bvi\.mock\(/);
}

/** Property cases the unit tier runs per property unless MELON_PROPERTY_RUNS says otherwise. */
const QUICK_PROPERTY_RUNS = '20';

export function tierConfig(tier: Tier | 'all'): ViteUserConfig {
  const quick = tier === 'unit';
  // The quick tier shares one module registry per worker: importing the server's modules again
  // for each of its files cost more than its tests. Files that mock a module keep their own.
  const mocking = quick ? moduleMockingTests() : [];
  const projects = quick
    ? [
        {
          extends: true as const,
          test: { name: 'unit', include: [...TIERS.unit], exclude: mocking, isolate: false },
        },
        { extends: true as const, test: { name: 'unit, mocked modules', include: mocking } },
      ]
    : undefined;
  return defineConfig({
    test: {
      include: quick ? [] : tier === 'all' ? ['test/**/*.test.ts'] : [...TIERS[tier]],
      projects,
      testTimeout: 30_000,
      hookTimeout: 120_000,
      // Each test file starts its own servers on port 0, so files can run in parallel workers.
      pool: 'forks',
      globalSetup: ['./test/support/run-temp-dir.ts'],
      // Vitest leaves a core free by default, which on a two-core machine runs the quick tier in
      // one worker; its files start no servers and may take every core.
      maxWorkers: quick ? availableParallelism() : undefined,
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
