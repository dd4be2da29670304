import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StatsFilter } from '../../../../server/services/stats/reads/results.js';
import { StatsIndex } from '../../../../server/services/stats/stats-index.js';
import { GROW_AHEAD_FROM, SPARE_ROWS } from '../../../../server/services/stats/columns/user-columns.js';
import type { PlayLogEntry } from '../../../../server/domain/play.js';
import { playLog, statsIndexOf } from '../../../factories/plays.js';
import { propertyRuns } from '../../../support/property-runs.js';
import {
  genreKeys,
  matchesFilter,
  referenceTop,
  type ReferenceSums,
} from '../../../support/stats-reference.js';

const T0 = Date.UTC(2024, 0, 10, 12, 0, 0);
const MIN = 60_000;
const entry = (overrides: Partial<PlayLogEntry> = {}) => playLog({ at: T0, ...overrides });
const indexOf = statsIndexOf;

const all: StatsFilter = { userId: 'u1' };

describe('StatsIndex ranking', () => {
  it('ranks by plays, then the latest play, then id', () => {
    const index = indexOf([
      entry({ trackId: 'b', at: T0 }),
      entry({ trackId: 'a', at: T0 }),
      entry({ trackId: 'c', at: T0 + 1 }),
      entry({ trackId: 'd', at: T0 - 5 }),
      entry({ trackId: 'd', at: T0 - 4 }),
    ]);
    expect(index.topTracks(all, 0, 10).map((t) => t.id)).toEqual(['d', 'c', 'a', 'b']);
    expect(index.topTracks(all, 0, 10)[0]).toEqual({
      id: 'd',
      plays: 2,
      skips: 0,
      listeningMs: 2000,
      lastPlayedAt: T0 - 4,
    });
  });

  it('pages with offset and limit', () => {
    const index = indexOf(Array.from({ length: 30 }, (_, i) => entry({ trackId: `t${i}`, at: T0 + i })));
    const ids = index.topTracks(all, 0, 30).map((t) => t.id);
    expect(index.topTracks(all, 5, 5).map((t) => t.id)).toEqual(ids.slice(5, 10));
    expect(index.topTracks(all, 28, 5).map((t) => t.id)).toEqual(ids.slice(28));
    expect(index.topTracks(all, 30, 5)).toEqual([]);
    expect(index.topTracks(all, 0, 0)).toEqual([]);
  });

  it('counts skips beside plays but never as plays, and ranks only played items', () => {
    const index = indexOf([
      entry({ trackId: 'a', type: 'skip' }),
      entry({ trackId: 'a' }),
      entry({ trackId: 'b', type: 'skip' }),
      entry({ trackId: 'b', type: 'skip', albumId: 'al2' }),
    ]);
    expect(index.topTracks(all, 0, 10)).toEqual([
      { id: 'a', plays: 1, skips: 1, listeningMs: 1000, lastPlayedAt: T0 },
    ]);
    expect(index.topAlbums(all, 0, 10).map((a) => a.id)).toEqual(['al1']);
    expect(index.listeningTime(all)).toEqual({ totalMs: 1000, plays: 1 });
  });

  it('counts a play once for each distinct artist', () => {
    const index = indexOf([
      entry({ artistIds: ['ar1', 'ar2', 'ar1'], artistNames: ['One', 'Two', 'One'] }),
      entry({ artistIds: ['ar2'] }),
    ]);
    expect(index.topArtists(all, 0, 10).map((a) => [a.id, a.plays])).toEqual([
      ['ar2', 2],
      ['ar1', 1],
    ]);
  });

  it('groups genres ignoring case and spaces, showing the most frequent spelling', () => {
    const index = indexOf([
      entry({ genres: ['rock'] }),
      entry({ genres: [' Rock '] }),
      entry({ genres: ['Rock', 'ROCK'] }),
      entry({ genres: ['Pop', 'pop'] }),
      entry({ genres: ['pop', ''] }),
    ]);
    expect(index.topGenres(all, 0, 10)).toEqual([
      { genre: 'Rock', plays: 3, listeningMs: 3000, lastPlayedAt: T0 },
      { genre: 'pop', plays: 2, listeningMs: 2000, lastPlayedAt: T0 },
    ]);
    // A tie between spellings goes to the smallest.
    const tie = indexOf([entry({ genres: ['jazz'] }), entry({ genres: ['Jazz'] })]);
    expect(tie.topGenres(all, 0, 10)[0]?.genre).toBe('Jazz');
  });
});

describe('StatsIndex filters', () => {
  it('includes both edges of a range and nothing 1 ms outside', () => {
    const from = T0;
    const to = T0 + 10 * MIN;
    const index = indexOf([
      entry({ at: from - 1 }),
      entry({ at: from }),
      entry({ at: to }),
      entry({ at: to + 1 }),
    ]);
    expect(index.listeningTime({ userId: 'u1', from, to }).plays).toBe(2);
    expect(index.topTracks({ userId: 'u1', from, to }, 0, 10)[0]?.plays).toBe(2);
    expect(index.listeningTime({ userId: 'u1', from: from + 1, to: to - 1 }).plays).toBe(0);
    expect(index.listeningTime({ userId: 'u1', to: from }).plays).toBe(2);
    expect(index.listeningTime(all).plays).toBe(4);
  });

  it('matches the device exactly, ignoring case, never as a substring', () => {
    const index = indexOf([
      entry({ device: 'Phone' }),
      entry({ device: 'phone' }),
      entry({ device: 'Phone 2' }),
      entry({ device: null }),
    ]);
    expect(index.listeningTime({ userId: 'u1', device: 'PHONE' }).plays).toBe(2);
    expect(index.listeningTime({ userId: 'u1', device: 'Phon' }).plays).toBe(0);
    expect(index.topTracks({ userId: 'u1', device: 'phone 2' }, 0, 10)[0]?.plays).toBe(1);
    expect(index.recentPlays({ userId: 'u1', device: 'pHoNe' }, 0, 10)).toHaveLength(2);
  });

  it('tells apart more device names and snapshots than a byte and then 16 bits hold', () => {
    const count = 66_000;
    const logs = Array.from({ length: count }, (_, i) =>
      entry({ device: `device ${i}`, trackId: `t${i}`, at: T0 + i }),
    );
    // The device read first before the column widens, the others after each widening.
    const index = indexOf(logs.slice(0, 200));
    expect(index.listeningTime({ userId: 'u1', device: 'device 199' }).plays).toBe(1);
    for (const e of logs.slice(200)) index.add(e);
    for (const i of [0, 199, 254, 255, 256, 65_534, 65_535, 65_536, count - 1]) {
      expect(index.listeningTime({ userId: 'u1', device: `device ${i}` }).plays).toBe(1);
      expect(index.recentPlays({ userId: 'u1', device: `device ${i}` }, 0, 5)).toEqual([logs[i]]);
      expect(index.topTracks({ userId: 'u1', from: T0 + i, to: T0 + i }, 0, 5).map((t) => t.id)).toEqual([
        `t${i}`,
      ]);
    }
  });

  it('keeps users apart and answers an unknown user with nothing', () => {
    const index = indexOf([entry({ userId: 'u1' }), entry({ userId: 'u2' }), entry({ userId: 'u2' })]);
    expect(index.listeningTime({ userId: 'u2' }).plays).toBe(2);
    expect(index.listeningTime({ userId: 'nobody' })).toEqual({ totalMs: 0, plays: 0 });
    expect(index.topTracks({ userId: 'nobody' }, 0, 10)).toEqual([]);
    expect(index.size).toBe(3);
  });
});

describe('StatsIndex recent lists', () => {
  it('lists plays newest first, without skips, as logged', () => {
    const a = entry({ at: T0, device: 'Car', explicitAt: true, genres: [' Rock'] });
    const b = entry({
      at: T0 + 2,
      trackId: 't2',
      albumId: null,
      albumName: null,
      artistIds: [],
      artistNames: [],
    });
    const skip = entry({ at: T0 + 3, type: 'skip' });
    const index = indexOf([a, b, skip]);
    expect(index.recentPlays(all, 0, 10)).toEqual([b, a]);
    expect(index.recentPlays(all, 1, 10)).toEqual([a]);
  });

  it('gives back ids of any shape, kept in memory when no play log holds them', () => {
    const id = 'AAECAwQFBgcICQoLDA0ODw';
    const index = indexOf([entry({ id }), entry({ id: 'x'.repeat(40), at: T0 + 1 })]);
    expect(index.recentPlays(all, 0, 10).map((e) => e.id)).toEqual(['x'.repeat(40), id]);
  });

  it('keeps the all-time sums of only the devices read last, and answers every device right', () => {
    const devices = ['A', 'B', 'C', 'D', 'E', 'F'];
    const logs = Array.from({ length: 60 }, (_, i) =>
      entry({ device: devices[i % 6]!, trackId: `t${i % 4}`, at: T0 + i * MIN }),
    );
    const index = indexOf(logs);
    const expected = (device: string, upTo: PlayLogEntry[]) => upTo.filter((e) => e.device === device).length;
    // Every device read in turn, twice: the first ones read are dropped and made again.
    for (const round of [1, 2]) {
      for (const device of devices) {
        const top = index.topTracks({ userId: 'u1', device }, 0, 10);
        expect(top.reduce((sum, t) => sum + t.plays, 0)).toBe(expected(device, logs));
        // Plays logged after a device's sums were made are counted in them.
        const more = entry({ device, trackId: 't9', at: T0 + (100 + round) * MIN });
        logs.push(more);
        index.add(more);
        expect(index.listeningTime({ userId: 'u1', device }).plays).toBe(expected(device, logs));
      }
    }
  });

  it("makes a device's all-time sums ahead a slice of rows per turn, starting over when logs arrive between", async () => {
    const devices = ['Phone', 'Laptop'];
    const logs = Array.from({ length: 95 }, (_, i) =>
      entry({
        device: devices[i % 2]!,
        trackId: `t${i % 7}`,
        at: T0 + i * MIN,
        type: i % 5 ? 'play' : 'skip',
      }),
    );
    let betweenSlices = (): Promise<void> => Promise.resolve();
    const index = new StatsIndex({ rowsPerTurn: 10, nextTurn: () => betweenSlices() });
    for (const e of logs) index.add(e);
    const reference = () => indexOf(logs);
    const phone = { userId: 'u1', device: 'phone' };

    let turns = 0;
    betweenSlices = () => {
      turns += 1;
      // Logs arriving mid-way, one far back (it moves every later row): the scan starts over.
      if (turns === 3 || turns === 8) {
        const late = entry({ device: 'Phone', trackId: 't3', at: T0 - turns * MIN });
        logs.push(late);
        index.add(late);
      }
      return Promise.resolve();
    };
    await index.prepare(phone);
    // 95 rows in slices of 10: 3 turns, then 96 rows: 5 turns, then 97 rows: 9 turns.
    expect(turns).toBe(3 + 5 + 9);
    expect(index.topTracks(phone, 0, 10)).toEqual(reference().topTracks(phone, 0, 10));
    expect(index.listeningTime(phone)).toEqual(reference().listeningTime(phone));
    expect(index.recentArtists(phone, 0, 10)).toEqual(reference().recentArtists(phone, 0, 10));

    // Made: nothing left to make; a range, or no device, needs nothing made ahead.
    betweenSlices = () => Promise.reject(new Error('no turn expected'));
    await index.prepare(phone);
    await index.prepare({ userId: 'u1' });
    await index.prepare({ ...phone, from: T0 + 50 * MIN });
    await index.prepare({ userId: 'u1', device: 'no such device' });
  });

  it("makes a heavy listener's row marks ahead of a ranged read, a mark per turn", async () => {
    const logs = Array.from({ length: 45 }, (_, i) =>
      entry({ trackId: `t${i % 7}`, at: T0 + i * MIN, type: i % 5 ? 'play' : 'skip' }),
    );
    let turns = 0;
    const index = new StatsIndex({
      markEvery: 10,
      nextTurn: () => {
        turns += 1;
        return Promise.resolve();
      },
    });
    for (const e of logs) index.add(e);
    await index.prepare({ userId: 'u1' });
    expect(turns).toBe(0);
    const range = { userId: 'u1', from: T0 + 32 * MIN };
    await index.prepare(range);
    // Marks at rows 10, 20, 30 and 40, a turn after each; then nothing left to make.
    expect(turns).toBe(4);
    await index.prepare(range);
    expect(turns).toBe(4);
    expect(index.topTracks(range, 0, 10)).toEqual(indexOf(logs).topTracks(range, 0, 10));
  });

  it("makes a listener's all-time rankings ahead of an all-time read, pausing between turns", async () => {
    const logs = Array.from({ length: 16_000 }, (_, i) =>
      entry({ trackId: `t${(i * 7919) % 8000}`, albumId: `al${i % 700}`, at: T0 + (i % 977) * MIN }),
    );
    let turns = 0;
    const index = statsIndexOf(logs, {
      nextTurn: () => {
        turns += 1;
        return Promise.resolve();
      },
    });
    index.settle();
    await index.prepare(all);
    // The tracks' sort takes more than its first step: the rest runs in later turns, as many
    // steps a turn as fit its budget (ranking.test.ts counts them).
    expect(turns).toBeGreaterThanOrEqual(1);
    const made = turns;
    expect(index.topTracks(all, 0, 8000)).toEqual(indexOf(logs).topTracks(all, 0, 8000));
    expect(index.recentAlbums(all, 0, 700)).toEqual(indexOf(logs).recentAlbums(all, 0, 700));
    await index.prepareListener('u1');
    expect(turns).toBe(made);
  });

  it("makes a device's sums at once when logs keep arriving between slices", async () => {
    const logs = Array.from({ length: 40 }, (_, i) => entry({ device: 'Phone', at: T0 + i * MIN }));
    let turns = 0;
    const index = new StatsIndex({
      rowsPerTurn: 10,
      nextTurn: () => {
        turns += 1;
        const more = entry({ device: 'Phone', at: T0 + (100 + turns) * MIN });
        logs.push(more);
        index.add(more);
        return Promise.resolve();
      },
    });
    for (const e of logs) index.add(e);
    await index.prepare({ userId: 'u1', device: 'Phone' });
    expect(turns).toBe(3);
    expect(index.listeningTime({ userId: 'u1', device: 'Phone' }).plays).toBe(43);
  });

  it('lists distinct albums and artists by their latest play', () => {
    const index = indexOf([
      entry({ albumId: 'al1', at: T0 }),
      entry({ albumId: 'al2', at: T0 + 1 }),
      entry({ albumId: 'al1', at: T0 + 2 }),
      entry({ albumId: 'al3', at: T0 + 3, type: 'skip' }),
      entry({ albumId: 'al4', at: T0 + 1 }),
    ]);
    expect(index.recentAlbums(all, 0, 10)).toEqual([
      { id: 'al1', lastPlayedAt: T0 + 2, plays: 2 },
      { id: 'al2', lastPlayedAt: T0 + 1, plays: 1 },
      { id: 'al4', lastPlayedAt: T0 + 1, plays: 1 },
    ]);
    expect(index.recentArtists(all, 0, 10)).toEqual([{ id: 'ar1', lastPlayedAt: T0 + 2, plays: 4 }]);
  });
});

describe('StatsIndex lookups', () => {
  it("looks up a user's latest play of a track, kept current as plays arrive; skips do not count", () => {
    const index = statsIndexOf([
      playLog({ userId: 'u1', trackId: 't1', at: 100 }),
      playLog({ userId: 'u1', trackId: 't1', at: 300 }),
      playLog({ userId: 'u1', trackId: 't2', at: 200, type: 'skip' }),
      playLog({ userId: 'u2', trackId: 't3', at: 400 }),
    ]);
    const latest = index.latestPlays('u1');
    expect([latest('t1'), latest('t2'), latest('t3'), latest('nope')]).toEqual([
      300,
      undefined,
      undefined,
      undefined,
    ]);
    index.add(playLog({ userId: 'u1', trackId: 't2', at: 250 }));
    index.add(playLog({ userId: 'u1', trackId: 't1', at: 50 }));
    expect([latest('t1'), latest('t2')]).toEqual([300, 250]);
    expect(index.latestPlays('nobody')('t1')).toBeUndefined();
  });

  it('finds a retry only for an explicit time with the same user, track and type', () => {
    const explicit = entry({ explicitAt: true, at: T0 + 7 });
    const index = indexOf([entry({ at: T0 + 5 }), explicit]);
    expect(index.findRetry('u1', 't1', 'play', T0 + 7)).toEqual(explicit);
    expect(index.findRetry('u1', 't1', 'skip', T0 + 7)).toBeUndefined();
    expect(index.findRetry('u1', 't1', 'play', T0 + 5)).toBeUndefined();
    expect(index.findRetry('u2', 't1', 'play', T0 + 7)).toBeUndefined();
  });

  it('keeps the latest snapshot of a track and its names', () => {
    const index = indexOf([
      entry({ trackName: 'New', albumName: 'New album', artistNames: ['New artist'], at: T0 + 10 }),
      entry({ trackName: 'Old', albumName: 'Old album', artistNames: ['Old artist'], at: T0, userId: 'u2' }),
      entry({ albumName: null, artistNames: [''], at: T0 + 20, userId: 'u2' }),
    ]);
    expect(index.latestSnapshotOfTrack('t1')).toMatchObject({ albumName: null, artistNames: [''] });
    expect(index.snapshotName('album', 'al1')).toBe('New album');
    expect(index.snapshotName('artist', 'ar1')).toBe('New artist');
    expect(index.snapshotName('artist', 'nope')).toBeNull();
    expect(index.latestSnapshotOfTrack('nope')).toBeUndefined();
  });
});

describe('StatsIndex activity', () => {
  const local = (y: number, m: number, d: number, h = 0) => new Date(y, m, d, h).getTime();

  it('returns every step, empty ones included, in local time', () => {
    const index = indexOf([
      entry({ at: local(2024, 2, 4, 10) }),
      entry({ at: local(2024, 2, 4, 23), type: 'skip' }),
      entry({ at: local(2024, 2, 6, 1) }),
    ]);
    const days = index.activity(
      { userId: 'u1', from: local(2024, 2, 4, 5), to: local(2024, 2, 6, 5) },
      'day',
      10,
    );
    expect(days).toEqual([
      { start: local(2024, 2, 4), plays: 1, skips: 1, listeningMs: 1000 },
      { start: local(2024, 2, 5), plays: 0, skips: 0, listeningMs: 0 },
      { start: local(2024, 2, 6), plays: 1, skips: 0, listeningMs: 1000 },
    ]);
    // 2024-03-06 is a Wednesday: its week starts on Monday 2024-03-04.
    const weeks = index.activity(
      { userId: 'u1', from: local(2024, 2, 6), to: local(2024, 2, 12) },
      'week',
      10,
    );
    expect(weeks.map((w) => w.start)).toEqual([local(2024, 2, 4), local(2024, 2, 11)]);
    expect(weeks[0]?.plays).toBe(1); // the Monday play is before `from`
    const months = index.activity(
      { userId: 'u1', from: local(2024, 0, 31), to: local(2024, 3, 1) },
      'month',
      10,
    );
    expect(months.map((m) => m.start)).toEqual([
      local(2024, 0, 1),
      local(2024, 1, 1),
      local(2024, 2, 1),
      local(2024, 3, 1),
    ]);
    expect(months[2]?.plays).toBe(2);
  });

  it('stops as soon as there are more steps than allowed', () => {
    const index = indexOf([entry()]);
    const steps = index.activity(
      { userId: 'u1', from: local(2000, 0, 1), to: local(2030, 0, 1) },
      'day',
      1000,
    );
    expect(steps).toHaveLength(1001);
    expect(index.activity({ userId: 'u1', from: T0, to: T0 }, 'day', 1000)).toHaveLength(1);
  });
});

describe('StatsIndex out-of-order logs', () => {
  it('stays correct when logs arrive with times in the past, near and far', () => {
    for (const [inPlaceLimit, farInsertBudget] of [
      [0, 0],
      [2, 0],
      [0, 1],
      [4096, 16],
    ] as const) {
      const entries = [5, 1, 9, 3, 3, 7, 0, 8, 2].map((i) => entry({ at: T0 + i * MIN, trackId: `t${i}` }));
      const index = indexOf(entries.slice(0, 5), { inPlaceLimit, farInsertBudget });
      expect(index.recentPlays(all, 0, 1)[0]?.trackId).toBe('t9');
      for (const e of entries.slice(5)) index.add(e);
      expect(index.recentPlays(all, 0, 20).map((e) => e.at)).toEqual(
        entries.map((e) => e.at).sort((a, b) => b - a),
      );
      expect(index.listeningTime({ userId: 'u1', from: T0 + 2 * MIN, to: T0 + 5 * MIN }).plays).toBe(4);
    }
  });
});

// ---- property test against a naive reference: filter + reduce + sort ----

function refSpelling(entries: PlayLogEntry[], f: StatsFilter, key: string): string {
  const counts = new Map<string, number>();
  for (const e of entries.filter((x) => matchesFilter(x, f) && x.type === 'play')) {
    for (const s of new Set(e.genres.map((g) => g.trim()))) {
      if (s !== '' && s.toLowerCase() === key) counts.set(s, (counts.get(s) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
}

function refRecent(entries: PlayLogEntry[], f: StatsFilter, keys: (e: PlayLogEntry) => string[]) {
  return referenceTop(entries, { ...f, from: undefined, to: undefined }, keys)
    .sort((a, b) => b.lastPlayedAt - a.lastPlayedAt || (a.id < b.id ? -1 : 1))
    .map((g) => ({ id: g.id, lastPlayedAt: g.lastPlayedAt, plays: g.plays }));
}

const arbEntry = fc.record({
  userId: fc.constantFrom('u1', 'u2'),
  trackId: fc.constantFrom('t1', 't2', 't3', 't4', 't5', 't6'),
  albumId: fc.constantFrom('al1', 'al2', 'al3', null),
  // The service de-duplicates artists before logging (docs/API.md, Statistics).
  artistIds: fc.uniqueArray(fc.constantFrom('ar1', 'ar2', 'ar3', 'ar4'), { maxLength: 3 }),
  genres: fc.array(fc.constantFrom('Rock', 'rock', ' ROCK ', 'Pop', 'pop', 'Jazz', ''), { maxLength: 3 }),
  durationMs: fc.integer({ min: 0, max: 600_000 }),
  device: fc.constantFrom(null, 'Phone', 'phone', 'Car', 'Phone2'),
  type: fc.constantFrom<'play' | 'skip'>('play', 'play', 'play', 'skip'),
  at: fc.integer({ min: 0, max: 60 }).map((i) => T0 + i * MIN),
  explicitAt: fc.boolean(),
});

const arbFilter = fc.record({
  userId: fc.constantFrom('u1', 'u2', 'u3'),
  from: fc.option(
    fc.integer({ min: -2, max: 62 }).map((i) => T0 + i * MIN),
    { nil: undefined },
  ),
  to: fc.option(
    fc.integer({ min: -2, max: 62 }).map((i) => T0 + i * MIN),
    { nil: undefined },
  ),
  device: fc.option(fc.constantFrom('PHONE', 'car', 'Phone2', 'Tablet'), { nil: undefined }),
});

describe('StatsIndex against a naive reference', () => {
  it('answers every read like filter + reduce + sort', () => {
    fc.assert(
      fc.property(
        fc.array(arbEntry, { maxLength: 120 }),
        fc.array(fc.tuple(arbFilter, fc.nat(8), fc.integer({ min: 1, max: 12 })), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 3 }),
        (raw, queries, inPlaceLimit, farInsertBudget) => {
          const entries = raw.map((r, i): PlayLogEntry => ({
            ...r,
            id: `e${i}`,
            trackName: `name ${r.trackId}`,
            albumName: r.albumId,
            artistNames: r.artistIds.map((a) => `name ${a}`),
          }));
          const index = new StatsIndex({ inPlaceLimit, farInsertBudget });
          const half = entries.length >> 1;
          entries.slice(0, half).forEach((e) => index.add(e));
          // A read in between forces a merge of whatever arrived out of order so far.
          index.listeningTime({ userId: 'u1' });
          entries.slice(half).forEach((e) => index.add(e));

          for (const [f, offset, limit] of queries) {
            const page = <T>(list: T[]) => list.slice(offset, offset + limit);
            const filtered = entries.filter((e) => matchesFilter(e, f) && e.type === 'play');
            expect(index.listeningTime(f)).toEqual({
              totalMs: filtered.reduce((s, e) => s + e.durationMs, 0),
              plays: filtered.length,
            });
            expect(index.topTracks(f, offset, limit)).toEqual(
              page(referenceTop(entries, f, (e) => [e.trackId])),
            );
            const strip = ({ id, plays, listeningMs, lastPlayedAt }: ReferenceSums) => ({
              id,
              plays,
              listeningMs,
              lastPlayedAt,
            });
            expect(index.topAlbums(f, offset, limit)).toEqual(
              page(referenceTop(entries, f, (e) => (e.albumId ? [e.albumId] : []))).map(strip),
            );
            expect(index.topArtists(f, offset, limit)).toEqual(
              page(referenceTop(entries, f, (e) => e.artistIds)).map(strip),
            );
            expect(index.topGenres(f, offset, limit)).toEqual(
              page(referenceTop(entries, f, genreKeys)).map((g) => ({
                genre: refSpelling(entries, f, g.id),
                plays: g.plays,
                listeningMs: g.listeningMs,
                lastPlayedAt: g.lastPlayedAt,
              })),
            );
            // Every kind from one scan reads the same as each kind on its own.
            expect(index.tops(f, limit)).toEqual({
              tracks: index.topTracks(f, 0, limit),
              albums: index.topAlbums(f, 0, limit),
              artists: index.topArtists(f, 0, limit),
              genres: index.topGenres(f, 0, limit),
            });
            const plays = entries
              .map((e, i) => ({ e, i }))
              .filter(({ e }) => matchesFilter(e, f, false) && e.type === 'play')
              .sort((a, b) => b.e.at - a.e.at || b.i - a.i)
              .map(({ e }) => e);
            expect(index.recentPlays(f, offset, limit)).toEqual(page(plays));
            expect(index.recentAlbums(f, offset, limit)).toEqual(
              page(refRecent(entries, f, (e) => (e.albumId ? [e.albumId] : []))),
            );
            expect(index.recentArtists(f, offset, limit)).toEqual(
              page(refRecent(entries, f, (e) => e.artistIds)),
            );
          }
        },
      ),
      { seed: 20240110, numRuns: propertyRuns(300) },
    );
  });
});

describe('StatsIndex reservations', () => {
  const capacity = (index: StatsIndex, userId: string) => index.rowsOf(userId)?.columns.at.length;

  it('makes room for many rows of a user at once, and drops what a reservation left unused', () => {
    const index = indexOf(Array.from({ length: 100 }, (_, i) => entry({ at: T0 + i * MIN })));
    index.reserveRows('u1', 1000);
    expect(capacity(index, 'u1')).toBe(1100);
    for (let i = 100; i < 1100; i += 1) index.add(entry({ at: T0 + i * MIN }));
    expect(capacity(index, 'u1')).toBe(1100);
    expect(index.listeningTime({ userId: 'u1' }).plays).toBe(1100);

    index.reserveRows('u1', 1000);
    expect(capacity(index, 'u1')).toBe(2100);
    index.dropSpareRows('u1');
    expect(capacity(index, 'u1')).toBe(1100);
    expect(index.recentPlays({ userId: 'u1' }, 0, 1)[0]?.at).toBe(T0 + 1099 * MIN);
  });

  it('keeps the room growing row by row left', () => {
    const index = indexOf(Array.from({ length: 100 }, (_, i) => entry({ at: T0 + i * MIN })));
    expect(capacity(index, 'u1')).toBe(122); // 16, 24, 36, 54, 81, 122: by half while small
    index.dropSpareRows('u1');
    expect(capacity(index, 'u1')).toBe(122);
  });

  it('keeps the spare of a reservation an estimate overshot by one step: a trim would copy every column', () => {
    const rows = 1 << 17;
    const index = indexOf(Array.from({ length: 100 }, (_, i) => entry({ at: T0 + i * MIN })));
    // An import estimated a thousand rows more than it will add, then one row past that room,
    // which grew it by an eighth.
    index.reserveRows('u1', rows - 100 + 1000);
    for (let i = 100; i < rows; i += 1) index.add(entry({ at: T0 + i * MIN }));
    index.reserveRows('u1', 1001);
    const grown = capacity(index, 'u1')!;
    expect(grown).toBe(Math.ceil((rows + 1000 + SPARE_ROWS) * 1.125));
    index.dropSpareRows('u1');
    expect(capacity(index, 'u1')).toBe(grown);

    // Past a quarter of the rows spare, the room is dropped.
    index.reserveRows('u1', grown - rows + rows / 4);
    index.dropSpareRows('u1');
    expect(capacity(index, 'u1')).toBeLessThan(grown);
    expect(index.listeningTime({ userId: 'u1' }).plays).toBe(rows);
  });

  it('leaves a large import that added what it reserved its spare rows, without growing again', async () => {
    const rows = GROW_AHEAD_FROM * 2;
    const index = indexOf(Array.from({ length: 100 }, (_, i) => entry({ at: T0 + i * MIN })));
    index.reserveRows('u1', rows - 100);
    const reserved = capacity(index, 'u1');
    expect(reserved).toBe(rows + SPARE_ROWS);
    for (let i = 100; i < rows; i += 1) index.add(entry({ at: T0 + i * MIN }));
    // A growth ahead would start on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(capacity(index, 'u1')).toBe(reserved);
  });

  it('reserves nothing for a user without rows', () => {
    const index = indexOf([entry()]);
    index.reserveRows('u2', 1000);
    index.dropSpareRows('u2');
    expect(index.rowsOf('u2')).toBeUndefined();
  });
});
