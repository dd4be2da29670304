import { describe, expect, it } from 'vitest';
import type { PlaySnapshot } from '../../../../../server/domain/play.js';
import { IndexTables } from '../../../../../server/services/stats/tables/index-tables.js';
import { LatestLogs } from '../../../../../server/services/stats/tables/latest-logs.js';

const snapshot = (i: number): PlaySnapshot => ({
  trackId: `track ${i}`,
  albumId: `album ${i % 5}`,
  artistIds: [`artist ${i % 3}`],
  genres: [],
  durationMs: 1000,
  trackName: `Track ${i}`,
  albumName: `Album ${i % 5}`,
  artistNames: [`Artist ${i % 3}`],
});

/** The columns a LatestLogs keeps per snapshot (private: looked at for their room). */
const columnsOf = (latest: LatestLogs) =>
  latest as unknown as { snapshotAt: Float64Array; snapshotUser: Int32Array };

describe('the newest log of each snapshot', () => {
  it("makes room for every snapshot defined at the first log, as a load's rows come in no order", () => {
    const tables = new IndexTables();
    const count = 5_000;
    for (let i = 0; i < count; i += 1) tables.snapshots.intern(snapshot(i), i);
    const latest = new LatestLogs(tables);
    latest.note(3, 1, 1_000);
    const first = columnsOf(latest).snapshotAt;
    expect(first.length).toBeGreaterThanOrEqual(count);
    // Snapshots in every order after: the columns are never copied again.
    for (let s = count - 1; s >= 0; s -= 7) latest.note(s, 0, 2_000 + s);
    expect(columnsOf(latest).snapshotAt).toBe(first);
    // The newest log of each wins, and its names are made from it.
    latest.note(3, 0, 500);
    expect(columnsOf(latest).snapshotAt[3]).toBe(1_000);
    expect(columnsOf(latest).snapshotUser[3]).toBe(1);
    expect(latest.nameOf('album', 'album 3')).toBe('Album 3');
    expect(latest.nameOf('artist', 'artist 2')).toBe('Artist 2');
  });
});
