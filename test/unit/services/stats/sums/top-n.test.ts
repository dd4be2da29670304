import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Tally } from '../../../../../server/services/stats/sums/tally.js';
import { byPlays, byRecency, kthLargest, select } from '../../../../../server/services/stats/sums/top-n.js';
import { propertyRuns } from '../../../../support/property-runs.js';

describe('select', () => {
  /** A tally where item i has keys[i] plays (items without plays have a skip: noted, never selected). */
  const tallyOf = (keys: number[]) => {
    const tally = new Tally();
    keys.forEach((plays, i) => {
      if (plays === 0) tally.bump(i, false, 0, 0);
      for (let p = 0; p < plays; p += 1) tally.bump(i, true, 1000, 0);
    });
    return tally;
  };

  it('gives the ranks a full sort of the played items gives, whether it keeps a buffer or sorts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 3000 }),
        fc.nat(300),
        fc.nat(300),
        (keys, offset, limit) => {
          const played = keys.flatMap((plays, i) => (plays > 0 ? [i] : []));
          // Ties broken by index: a total order, as select requires.
          const compare = (a: number, b: number) => keys[b]! - keys[a]! || a - b;
          const expected = [...played].sort(compare).slice(offset, offset + limit);
          expect(select(tallyOf(keys), compare, offset, limit)).toEqual(expected);
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });

  it('gives the ranks a full sort gives when it sorts only the items at or above the k-th plays', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 3000 }),
        fc.nat(400),
        fc.integer({ min: 1, max: 800 }),
        (keys, offset, limit) => {
          const tally = tallyOf(keys);
          keys.forEach((_, i) => tally.bump(i, true, 1000, (i * 37) % 11));
          const ids = keys.map((_, i) => `t${(i * 7919) % keys.length}`);
          const compare = byPlays(tally, ids);
          const expected = tally
            .played()
            .sort(compare)
            .slice(offset, offset + limit);
          expect(select(tally, compare, offset, limit)).toEqual(expected);
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });

  it('gives nothing for no room or an offset past the end', () => {
    const compare = (a: number, b: number) => a - b;
    expect(select(tallyOf([3, 1, 2]), compare, 0, 0)).toEqual([]);
    expect(select(tallyOf([3, 1, 2]), compare, 3, 5)).toEqual([]);
    expect(select(tallyOf([3, 0, 0]), compare, 1, 5)).toEqual([]);
  });
});

describe('kthLargest', () => {
  it('finds the k-th largest key a sort finds, over repeated, ordered and random keys', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 2000 }),
          // Without -0, which a sort may place either side of 0.
          fc
            .array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 2000 })
            .map((keys) => keys.map((key) => key + 0)),
          fc.integer({ min: 1, max: 2000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
          fc.integer({ min: 1, max: 2000 }).map((n) => Array.from({ length: n }, (_, i) => n - i)),
        ),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (keys, share) => {
          const k = 1 + Math.min(keys.length - 1, Math.floor(share * keys.length));
          const sorted = [...keys].sort((a, b) => b - a);
          expect(kthLargest(Float64Array.from(keys), k)).toBe(sorted[k - 1]);
        },
      ),
      { numRuns: propertyRuns(200) },
    );
  });
});

describe('ranking orders', () => {
  const ids = ['c', 'a', 'b', 'd'];
  const tally = new Tally();
  // c: 2 plays, last at 10; a: 2 plays, last at 30; b: 2 plays, last at 30; d: 3 plays, last at 5.
  for (const [idx, at] of [
    [0, 10],
    [0, 5],
    [1, 30],
    [1, 1],
    [2, 30],
    [2, 2],
    [3, 5],
    [3, 4],
    [3, 3],
  ] as const)
    tally.bump(idx, true, 1000, at);

  it('ranks a top list by plays, then latest play, then id', () => {
    expect([0, 1, 2, 3].sort(byPlays(tally, ids)).map((i) => ids[i])).toEqual(['d', 'a', 'b', 'c']);
  });

  it('ranks a recent list by latest play, then id', () => {
    expect([0, 1, 2, 3].sort(byRecency(tally, ids)).map((i) => ids[i])).toEqual(['a', 'b', 'c', 'd']);
  });
});
