import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Tally } from '../../../../server/services/stats/tally.js';
import { byPlays, byRecency, select } from '../../../../server/services/stats/top-n.js';

describe('select', () => {
  it('gives the ranks a full sort gives, whether it keeps a buffer or sorts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 3000 }),
        fc.nat(300),
        fc.nat(300),
        (keys, offset, limit) => {
          const candidates = keys.map((_, i) => i);
          // Ties broken by index: a total order, as select requires.
          const compare = (a: number, b: number) => keys[a]! - keys[b]! || a - b;
          const expected = [...candidates].sort(compare).slice(offset, offset + limit);
          expect(select(candidates, compare, offset, limit)).toEqual(expected);
        },
      ),
    );
  });

  it('gives nothing for no room or an offset past the end', () => {
    expect(select([3, 1, 2], (a, b) => a - b, 0, 0)).toEqual([]);
    expect(select([3, 1, 2], (a, b) => a - b, 3, 5)).toEqual([]);
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
