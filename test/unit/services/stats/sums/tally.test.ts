import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ranking } from '../../../../../server/services/stats/sums/ranking.js';
import { Tally } from '../../../../../server/services/stats/sums/tally.js';
import { byPlays, byRecency, select } from '../../../../../server/services/stats/sums/top-n.js';
import { propertyRuns } from '../../../../support/property-runs.js';

/** A log counted in a tally: an item, a play or a skip, and when; or several at once (`add`). */
type Count =
  { idx: number; play: boolean; at: number } | { idx: number; plays: number; skips: number; at: number };

const counts = (items: number) =>
  fc.array(
    fc.oneof(
      fc.record({ idx: fc.nat(items - 1), play: fc.boolean(), at: fc.nat(1_000) }),
      // Several logs at once: at least one (a fold adds no item without any).
      fc
        .record({ idx: fc.nat(items - 1), plays: fc.nat(3), skips: fc.nat(3), at: fc.nat(1_000) })
        .filter((log) => log.plays + log.skips > 0),
    ),
    { maxLength: 400 },
  );

function counted(tally: Tally, logs: Count[]): Tally {
  for (const log of logs) {
    if ('play' in log) tally.bump(log.idx, log.play, 1_000 + log.idx, log.at);
    else tally.add(log.idx, log.plays, log.skips, log.plays * (1_000 + log.idx), log.at);
  }
  return tally;
}

/** Every item's sums as a reader sees them. */
function sums(tally: Tally, items: number) {
  return Array.from({ length: items }, (_, idx) => [
    tally.playsOf(idx),
    tally.skipsOf(idx),
    tally.msOf(idx),
    tally.playsOf(idx) > 0 ? tally.lastOf(idx) : 0,
  ]);
}

describe("a listener's all-time sums, kept sparse", () => {
  it('read the same sums, played items and orders as sums kept for every item', () => {
    fc.assert(
      fc.property(counts(300), (logs) => {
        const dense = counted(new Tally(), logs);
        const sparse = counted(new Tally(true, true), logs);
        expect(sums(sparse, 300)).toEqual(sums(dense, 300));
        expect(new Set(sparse.played())).toEqual(new Set(dense.played()));
        const ids = Array.from({ length: 300 }, (_, i) => `t${(i * 7919) % 300}`);
        for (const order of [byPlays, byRecency]) {
          expect(select(sparse, order(sparse, ids), 0, 500)).toEqual(
            select(dense, order(dense, ids), 0, 500),
          );
          expect(select(sparse, order(sparse, ids), 3, 7)).toEqual(select(dense, order(dense, ids), 3, 7));
        }
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('hold room for the items played, not for every item of a large library', () => {
    const tally = new Tally(true, true);
    tally.ensure(200_000);
    for (const idx of [5, 199_999, 70_000]) tally.bump(idx, true, 1_000, 1);
    // The sums themselves: a few slots, not 200,000.
    expect(tally.plays.length).toBeLessThan(100);
    expect(tally.last.length).toBeLessThan(100);
    expect(tally.playsOf(199_999)).toBe(1);
    expect(tally.playsOf(6)).toBe(0);
    expect(tally.playsOf(300_000)).toBe(0);
    // Once counted, no spare room; and room again for the next item played.
    tally.fit();
    expect(tally.plays.length).toBe(3);
    tally.bump(6, false, 1_000, 2);
    expect([tally.skipsOf(6), tally.playsOf(70_000)]).toEqual([1, 1]);
  });

  it('turn dense once most items are counted, with the same sums', () => {
    const logs: Count[] = Array.from({ length: 90 }, (_, i) => ({
      idx: (i * 7) % 100,
      play: i % 4 !== 0,
      at: i,
    }));
    const sparse = new Tally(true, true);
    sparse.ensure(100);
    counted(sparse, logs);
    expect(sparse.slot).toBeDefined();
    sparse.fit();
    expect(sparse.slot).toBeUndefined();
    expect(sums(sparse, 100)).toEqual(sums(counted(new Tally(), logs), 100));
  });

  it('are forgotten by a reset and counted again from nothing', () => {
    const tally = counted(new Tally(true, true), [
      { idx: 3, play: true, at: 5 },
      { idx: 9, play: false, at: 6 },
    ]);
    tally.reset();
    expect(tally.played()).toEqual([]);
    expect([tally.playsOf(3), tally.skipsOf(9)]).toEqual([0, 0]);
    tally.bump(9, true, 1_000, 7);
    expect([tally.playsOf(9), tally.skipsOf(9), tally.lastOf(9), tally.playsOf(3)]).toEqual([1, 0, 7, 0]);
  });

  it('keep a ranking in the order a full sort gives as logs land', () => {
    const tally = new Tally(true, true);
    const ids = Array.from({ length: 50 }, (_, i) => `t${(i * 31) % 50}`);
    const ranking = new Ranking(tally, () => byPlays(tally, ids));
    for (let i = 0; i < 50; i += 1) tally.bump(i, true, 1_000, i);
    ranking.page(0, 1);
    for (let i = 0; i < 200; i += 1) {
      const idx = (i * 17) % 60;
      const before = ranking.before(idx);
      tally.bump(idx, true, 1_000, 100 + i);
      ranking.after(idx, before);
    }
    expect(ranking.page(0, 100)).toEqual(tally.played().sort(byPlays(tally, ids)));
  });
});

describe('a sparse tally given room ahead', () => {
  it('counts as one grown item by item, and fit lets go of the room left', () => {
    const ahead = new Tally(true, true);
    const grownByItem = new Tally(true, true);
    ahead.ensure(1_000);
    ahead.reserve(500);
    expect(ahead.plays.length).toBe(500);
    for (const t of [ahead, grownByItem]) for (let i = 0; i < 300; i += 3) t.bump(i, i % 2 === 0, 10, i);
    ahead.fit();
    grownByItem.fit();
    expect(ahead.plays.length).toBe(100);
    for (let i = 0; i < 300; i += 1) {
      expect([ahead.playsOf(i), ahead.skipsOf(i), ahead.lastOf(i)]).toEqual([
        grownByItem.playsOf(i),
        grownByItem.skipsOf(i),
        grownByItem.lastOf(i),
      ]);
    }
  });
});
