import { describe, expect, it } from 'vitest';
import { Listener } from '../../../../server/services/stats/listener.js';
import { SKIP } from '../../../../server/services/stats/columns/user-columns.js';
import { IndexTables } from '../../../../server/services/stats/tables/index-tables.js';
import { UserTallies } from '../../../../server/services/stats/sums/user-tallies.js';

function listenerWithOneTrack() {
  const tables = new IndexTables();
  const tallies = new UserTallies(tables, 4);
  const s = tables.snapshots.intern({
    trackId: 't1',
    albumId: 'a1',
    artistIds: ['ar1'],
    genres: ['Jazz'],
    durationMs: 200_000,
    trackName: 'One',
    albumName: 'Album',
    artistNames: ['Artist'],
  });
  const slicing = { rowsPerTurn: 1000, nextTurn: () => Promise.resolve() };
  const listener = new Listener(0, { tables, tallies, inPlaceLimit: 4096, farInsertBudget: 16, slicing });
  return { listener, s, artist: tables.artists.get('ar1')! };
}

describe('a listener owns their statistics', () => {
  it('counts a new play in every sum kept of them with one add', () => {
    const { listener, s, artist } = listenerWithOneTrack();
    listener.add(1_000, s, 0, 0);
    listener.settle();
    listener.add(2_000, s, 0, 0);
    listener.add(500, s, 0, SKIP);
    const u = listener.rows;
    expect(u.n).toBe(3);
    expect(u.plays).toBe(2);
    expect(u.listeningMs).toBe(400_000);
    expect(u.all?.plays).toBe(2);
    expect(u.all?.ms).toBe(400_000);
    expect(u.firstHeard?.[artist]).toBe(1_000);
  });

  it('drops what was summed by artist, to make it again at the next read', () => {
    const { listener, s } = listenerWithOneTrack();
    listener.add(1_000, s, 0, 0);
    listener.settle();
    listener.forgetArtistSums();
    expect(listener.rows.all).toBeUndefined();
    expect(listener.rows.firstHeard).toBeUndefined();
    expect(listener.rows.plays).toBe(1);
  });
});

describe('a heavy listener settling in a load in the background', () => {
  it('settles in small steps, the all-time sums a kind at a time and the first plays a slice of rows at a time', () => {
    const rows = 120_000;
    const settled = (inSteps: boolean) => {
      const { listener, s, artist } = listenerWithOneTrack();
      for (let i = 0; i < rows; i += 1) listener.add(1_000 + i, s, 0, i % 10 === 0 ? SKIP : 0);
      let pauses = 0;
      if (inSteps) {
        const steps = listener.settleInSteps();
        while (!steps.next().done) pauses += 1;
      } else listener.settle();
      const u = listener.rows;
      return { pauses, plays: u.all?.plays, ms: u.all?.ms, first: u.firstHeard?.[artist] };
    };
    const stepped = settled(true);
    // Sorting; four kinds of sums; then the rows in slices, and the fold into artists.
    expect(stepped.pauses).toBeGreaterThanOrEqual(1 + 4 + 1 + Math.floor(rows / 50_000));
    expect({ ...stepped, pauses: 0 }).toEqual({ ...settled(false), pauses: 0 });
    expect(stepped).toMatchObject({ plays: 108_000, first: 1_001 });
  });
});

describe('a listener left to settle after a load', () => {
  const loaded = (rows: number) => {
    const one = listenerWithOneTrack();
    for (let i = 0; i < rows; i += 1) one.listener.add(1_000 + i, one.s, 0, i % 10 === 0 ? SKIP : 0);
    one.listener.settleLater();
    return one;
  };

  it('is settled by its first prepared read, with the sums a settle at once makes', async () => {
    const { listener, artist } = loaded(5_000);
    expect(listener.rows.all).toBeUndefined();
    await listener.prepareAll();
    expect(listener.rows.all?.plays).toBe(4_500);
    expect(listener.rows.firstHeard?.[artist]).toBe(1_001);
  });

  it('makes ahead only the rankings an all-time read pages, when it names them', async () => {
    const { listener } = loaded(5_000);
    const u = listener.rows;
    const allTime = { u, lo: 0, hi: u.n, device: undefined, whole: true };
    await listener.prepare(allTime, ['tracks']);
    expect([...listener.rows.rankings.keys()]).toEqual(['tracks']);
    // A read that names none (a recent list read from the rows) makes none; one that does not say, all.
    await listener.prepare(allTime, []);
    expect(listener.rows.rankings.size).toBe(1);
    await listener.prepare(allTime);
    expect([...listener.rows.rankings.keys()]).toEqual(
      expect.arrayContaining(['tracks', 'albums', 'artists', 'genres', 'recentAlbums', 'recentArtists']),
    );
  });

  it('keeps nothing a row added while it settles made stale, and settles afresh after', async () => {
    const { listener, s, artist } = loaded(5_000);
    const steps = listener.settleInSteps();
    steps.next();
    listener.add(500, s, 0, 0);
    let step = steps.next();
    while (!step.done) step = steps.next();
    expect(step.value).toBe(false);
    expect(listener.rows.all).toBeUndefined();
    expect(listener.rows.firstHeard).toBeUndefined();
    await listener.settled();
    expect(listener.rows.all?.plays).toBe(4_501);
    expect(listener.rows.firstHeard?.[artist]).toBe(500);
  });

  it('shares one settling between whoever waits for it', async () => {
    const { listener } = loaded(5_000);
    const first = listener.settled();
    expect(listener.settled()).toBe(first);
    await first;
    expect(listener.rows.all?.plays).toBe(4_500);
  });
});
