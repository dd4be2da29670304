import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasPlay, markArtistsPlayedUntil } from '../../../../../server/services/stats/columns/log-rows.js';
import { StatsIndex } from '../../../../../server/services/stats/stats-index.js';
import type { PlayLogEntry } from '../../../../../server/domain/play.js';
import { propertyRuns } from '../../../../support/property-runs.js';

const T0 = Date.UTC(2024, 0, 10);
const MIN = 60_000;

const arbEntry = fc.record({
  userId: fc.constantFrom('u1', 'u2'),
  trackId: fc.constantFrom('t1', 't2', 't3', 't4'),
  artistIds: fc.uniqueArray(fc.constantFrom('ar1', 'ar2', 'ar3', 'ar4', 'ar5'), { maxLength: 2 }),
  // A track's artists may change between logs: each change is another snapshot.
  type: fc.constantFrom<'play' | 'skip'>('play', 'play', 'skip'),
  at: fc.integer({ min: 0, max: 60 }).map((i) => T0 + i * MIN),
});

function entryOf(r: typeof arbEntry extends fc.Arbitrary<infer E> ? E : never, i: number): PlayLogEntry {
  return {
    ...r,
    id: `e${i}`,
    albumId: null,
    genres: [],
    durationMs: 1000,
    device: null,
    explicitAt: false,
    trackName: null,
    albumName: null,
    artistNames: r.artistIds.map((a) => `name ${a}`),
  };
}

/** The artists `markArtistsPlayedUntil` marked, by id. */
function marked(index: StatsIndex, userId: string, until: number): string[] {
  const rows = index.rowsOf(userId);
  const heard = new Uint8Array(rows?.artistIds.length ?? 0);
  markArtistsPlayedUntil(rows, until, heard);
  return (rows?.artistIds ?? []).filter((_, i) => heard[i] === 1).sort();
}

describe('markArtistsPlayedUntil', () => {
  it('marks the artists of every play at or before a time, as logs keep arriving in any order', () => {
    fc.assert(
      fc.property(
        fc.array(arbEntry, { maxLength: 60 }),
        fc.array(fc.integer({ min: -1, max: 61 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 3 }),
        (raw, untils, inPlaceLimit) => {
          const entries = raw.map(entryOf);
          const index = new StatsIndex({ inPlaceLimit, farInsertBudget: 1 });
          const check = (added: PlayLogEntry[]) => {
            for (const userId of ['u1', 'u2', 'u3']) {
              for (const step of untils) {
                const until = T0 + step * MIN;
                const expected = [
                  ...new Set(
                    added
                      .filter((e) => e.userId === userId && e.type === 'play' && e.at <= until)
                      .flatMap((e) => e.artistIds),
                  ),
                ].sort();
                expect(marked(index, userId, until)).toEqual(expected);
                expect(hasPlay(index.rowsOf(userId), T0 - MIN, until)).toBe(
                  added.some((e) => e.userId === userId && e.type === 'play' && e.at <= until),
                );
              }
            }
          };
          // The first half, read (which makes each user's first plays), then the rest, kept current.
          const half = entries.length >> 1;
          entries.slice(0, half).forEach((e) => index.add(e));
          check(entries.slice(0, half));
          entries.slice(half).forEach((e) => index.add(e));
          check(entries);
        },
      ),
      { seed: 20261124, numRuns: propertyRuns(200) },
    );
  });
});
