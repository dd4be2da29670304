import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortedInSteps } from '../../../server/services/sorted-in-steps.js';
import { finish } from '../../../server/services/steps.js';
import { propertyRuns } from '../../support/property-runs.js';

interface Named {
  name: string;
  place: number;
}
const byName = (a: Named, b: Named) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

describe('a sort in steps', () => {
  it('gives what Array#sort gives, items of one name in their order, and leaves the list as it was', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 5_000 }),
        fc.integer({ min: 1, max: 5_000 }),
        (names, budget) => {
          const items = names.map((name, place) => ({ name, place }));
          const before = [...items];
          expect(finish(sortedInSteps(items, byName, budget))).toEqual([...items].sort(byName));
          expect(items).toEqual(before);
        },
      ),
      { numRuns: propertyRuns(30), seed: 25 },
    );
  });

  it('pauses after about as many comparisons as its budget', () => {
    const items = Array.from({ length: 10_000 }, (_, place) => ({
      name: String((place * 7919) % 10_007),
      place,
    }));
    let compared = 0;
    const counting = (a: Named, b: Named) => {
      compared += 1;
      return byName(a, b);
    };
    const steps = sortedInSteps(items, counting, 1_000);
    let most = 0;
    for (let step = steps.next(); !step.done; step = steps.next()) {
      most = Math.max(most, compared);
      compared = 0;
    }
    expect(most).toBeLessThanOrEqual(2_000);
  });
});
