import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/**
 * A child's `makeGarbage` (an async function, as source text): the same garbage kept and let go
 * each round, a quarter of what is kept at any time; it answers the heap's peak, which tells the
 * growth V8 used between full collections. `majorCollections()` answers how many full collections
 * the child has made so far, which tells it too, and depends less on the young generation's size.
 */
export const MAKE_GARBAGE = `
import { getHeapStatistics } from 'node:v8';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
let majors = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (entry.detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) majors++;
}).observe({ entryTypes: ['gc'] });
// The observer hears of a collection a turn after it.
const majorCollections = () => new Promise((resolve) => setTimeout(() => resolve(majors), 20));
const makeGarbage = async () => {
  const kept = [];
  let peak = 0;
  for (let round = 0; round < 60; round++) {
    for (let i = 0; i < 20000; i++) kept.push({ name: 'item ' + i + '/' + round, at: [i, round] });
    if (kept.length > 400000) kept.splice(0, 200000);
    peak = Math.max(peak, getHeapStatistics().total_heap_size);
  }
  return peak;
};
`;

/** Runs `source` (after MAKE_GARBAGE) as a module in a Node process of its own; the number it prints. */
export function peakIn(source: string, args: string[] = []): number {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', MAKE_GARBAGE + source, '--', ...args],
    { encoding: 'utf8' },
  );
  expect(run.stderr).toBe('');
  return Number(run.stdout.trim());
}
