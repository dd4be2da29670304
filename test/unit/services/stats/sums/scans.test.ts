import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StatsFilter } from '../../../../../server/services/stats/reads/results.js';
import { StatsIndex } from '../../../../../server/services/stats/stats-index.js';
import type { PlayLogEntry } from '../../../../../server/domain/play.js';
import { propertyRuns } from '../../../../support/property-runs.js';
import { genreKeys, referenceTop, type ReferenceSums } from '../../../../support/stats-reference.js';

/**
 * The specialised scans (scans.ts: a loop per case, sums per snapshot folded into each kind, and
 * ranges holding most rows answered as all time minus the rest) against a reference: filter the
 * logs, then count them one by one. Ranges are drawn around the logs' own times, so "all but the
 * first few" (the complement) and "all but the last few" (a scan) come up often.
 */
const T0 = Date.UTC(2024, 5, 1);
const MIN = 60_000;

const arbEntry = fc.record({
  userId: fc.constantFrom('u1', 'u1', 'u2'),
  trackId: fc.constantFrom('t1', 't2', 't3', 't4', 't5'),
  albumId: fc.constantFrom('al1', 'al2', null),
  artistIds: fc.uniqueArray(fc.constantFrom('ar1', 'ar2', 'ar3'), { maxLength: 2 }),
  genres: fc.array(fc.constantFrom('Rock', ' rock', 'Pop', ''), { maxLength: 2 }),
  // Few durations: logs of a track share snapshots, as they do in a real log.
  durationMs: fc.constantFrom(1000, 2000, 2500),
  device: fc.constantFrom(null, 'Phone', 'PHONE', 'Car'),
  type: fc.constantFrom<'play' | 'skip'>('play', 'play', 'play', 'skip'),
  at: fc.integer({ min: 0, max: 400 }).map((i) => T0 + i * MIN),
  explicitAt: fc.constant(false),
});

const arbFewSnapshots = arbEntry.map((e) => ({
  ...e,
  albumId: e.trackId === 't1' ? null : 'al1',
  artistIds: e.trackId === 't2' ? ['ar1', 'ar2'] : ['ar3'],
  genres: e.trackId === 't3' ? ['Rock', ' rock'] : ['Pop'],
  durationMs: 1000,
}));

const kinds = {
  tracks: (e: PlayLogEntry) => [e.trackId],
  albums: (e: PlayLogEntry) => (e.albumId ? [e.albumId] : []),
  artists: (e: PlayLogEntry) => e.artistIds,
  genres: genreKeys,
};

interface Query {
  userId: string;
  skipFirst: number | undefined;
  skipLast: number | undefined;
  nudge: number;
  device: string | undefined;
  kind: keyof typeof kinds;
}

const arbEntries = fc
  .oneof(
    // Many snapshots, or a few shared by many logs (a range then has more rows than snapshots).
    fc.array(arbEntry, { minLength: 1, maxLength: 300, size: 'max' }),
    fc.array(arbFewSnapshots, { minLength: 1, maxLength: 300, size: 'max' }),
  )
  .map((raw) =>
    raw.map((r, i): PlayLogEntry => ({
      ...r,
      id: `e${i}`,
      trackName: r.trackId,
      albumName: r.albumId,
      artistNames: r.artistIds,
    })),
  );

const arbQueries = fc.array(
  fc.record({
    userId: fc.constantFrom('u1', 'u2'),
    // Positions among the sorted times: small ones cut little off either end, others cut anywhere.
    skipFirst: fc.option(fc.oneof(fc.nat(12), fc.nat(300)), { nil: undefined }),
    skipLast: fc.option(fc.nat(12), { nil: undefined }),
    nudge: fc.constantFrom(-1, 0, 1),
    device: fc.option(fc.constantFrom('phone', 'car', 'Tablet'), { nil: undefined }),
    kind: fc.constantFrom<keyof typeof kinds>('tracks', 'albums', 'artists', 'genres'),
  }),
  { minLength: 1, maxLength: 8 },
);

/**
 * Each query's top list and listening time from `index` equal the reference's over `entries`. Each
 * read is prepared as the service prepares it (a device's sums, row marks).
 */
async function expectReference(index: StatsIndex, entries: PlayLogEntry[], queries: Query[]): Promise<void> {
  for (const q of queries) {
    const times = entries
      .filter((e) => e.userId === q.userId)
      .map((e) => e.at)
      .sort((a, b) => a - b);
    const at = (i: number) => times[Math.min(Math.max(i, 0), times.length - 1)] ?? T0;
    const f: StatsFilter = {
      userId: q.userId,
      from: q.skipFirst === undefined ? undefined : at(q.skipFirst) + q.nudge,
      to: q.skipLast === undefined ? undefined : at(times.length - 1 - q.skipLast) + q.nudge,
      device: q.device,
    };
    if (f.from !== undefined && f.to !== undefined && f.from > f.to) continue;
    await index.prepare(f);
    const want = referenceTop(entries, f, kinds[q.kind]).slice(0, 50);
    const strip = ({ id, plays, listeningMs, lastPlayedAt }: ReferenceSums) => ({
      id,
      plays,
      listeningMs,
      lastPlayedAt,
    });
    switch (q.kind) {
      case 'tracks':
        expect(index.topTracks(f, 0, 50)).toEqual(want);
        break;
      case 'albums':
        expect(index.topAlbums(f, 0, 50)).toEqual(want.map(strip));
        break;
      case 'artists':
        expect(index.topArtists(f, 0, 50)).toEqual(want.map(strip));
        break;
      case 'genres':
        expect(
          index
            .topGenres(f, 0, 50)
            .map((g) => [g.genre.toLowerCase(), g.plays, g.listeningMs, g.lastPlayedAt]),
        ).toEqual(want.map((g) => [g.id, g.plays, g.listeningMs, g.lastPlayedAt]));
        break;
    }
    const plays = referenceTop(entries, f, () => ['all'])[0];
    expect(index.listeningTime(f)).toEqual({ totalMs: plays?.listeningMs ?? 0, plays: plays?.plays ?? 0 });
  }
}

describe('specialised scans against a reference', () => {
  it('sum every kind of any range, device and user as counting the logs one by one does', async () => {
    await fc.assert(
      fc.asyncProperty(arbEntries, arbQueries, async (entries, queries) => {
        const index = new StatsIndex({ nextTurn: () => Promise.resolve() });
        entries.forEach((e) => index.add(e));
        await expectReference(index, entries, queries);
      }),
      { seed: 20261124, numRuns: propertyRuns(300) },
    );
  });

  it('sum as the reference does with row marks every few rows, kept current by logs added between reads', async () => {
    // Marks every 8 rows; logs out of order land in place near the end, a few far back, the rest in
    // the unsorted tail a read merges (which drops the marks, made again by the next ranged read).
    await fc.assert(
      fc.asyncProperty(arbEntries, arbQueries, fc.nat(300), async (entries, queries, split) => {
        const index = new StatsIndex({
          markEvery: 8,
          inPlaceLimit: 4,
          farInsertBudget: 2,
          nextTurn: () => Promise.resolve(),
        });
        const first = entries.slice(0, split);
        first.forEach((e) => index.add(e));
        await expectReference(index, first, queries);
        // The rest a few at a time, a read between: far logs then move into place (a read renews
        // the budget) and the marks live on, counting them.
        for (let at = split; at < entries.length; at += 5) {
          entries.slice(at, at + 5).forEach((e) => index.add(e));
          await expectReference(index, entries.slice(0, at + 5), queries.slice(0, 1));
        }
        await expectReference(index, entries, queries);
      }),
      { seed: 20261125, numRuns: propertyRuns(200) },
    );
  });
});
