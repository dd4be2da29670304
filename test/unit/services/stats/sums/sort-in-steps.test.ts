import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortInSteps } from '../../../../../server/services/stats/sums/sort-in-steps.js';
import { propertyRuns } from '../../../../support/property-runs.js';

/** Runs every step of a sort; how many times it paused. */
function pauses(steps: Generator<void, void>): number {
  let count = 0;
  while (!steps.next().done) count += 1;
  return count;
}

describe('a sort in steps', () => {
  it('orders as one sort does, however often it pauses', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 5000 }),
        fc.integer({ min: 1, max: 50_000 }),
        (keys, budget) => {
          // Ties broken by index: a total order, as the rankings' orders are.
          const compare = (a: number, b: number) => keys[b]! - keys[a]! || a - b;
          const items = Int32Array.from(keys.map((_, i) => i).reverse());
          pauses(sortInSteps(items, compare, budget));
          expect(Array.from(items)).toEqual(keys.map((_, i) => i).sort(compare));
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });

  it('pauses after each budget of comparisons, and never within a small budget-sized sort', () => {
    const n = 20_000;
    const compare = (a: number, b: number) => ((a * 7919) % n) - ((b * 7919) % n) || a - b;
    const items = () => Int32Array.from({ length: n }, (_, i) => i);
    // Runs of 1024 sorted natively (~10 comparisons an item), then 5 passes of merging n items.
    expect(pauses(sortInSteps(items(), compare, 10_000))).toBeGreaterThanOrEqual(20);
    expect(pauses(sortInSteps(items(), compare, Infinity))).toBe(0);
  });
});
