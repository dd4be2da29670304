import { describe, expect, it } from 'vitest';
import type { PlaySnapshot } from '../../../../../server/domain/play.js';
import { IndexTables } from '../../../../../server/services/stats/tables/index-tables.js';

const snapshot = (i: number): PlaySnapshot => ({
  trackId: `track ${i}`,
  albumId: `album ${i % 3}`,
  artistIds: [`artist ${i % 5}`, `artist ${(i + 1) % 5}`],
  genres: ['Rock'],
  durationMs: 1000 + i,
  trackName: `Track ${i}`,
  albumName: `Album ${i % 3}`,
  artistNames: [`Artist ${i % 5}`, `Artist ${(i + 1) % 5}`],
});

/** What the plays of snapshot `s` count for: artist ids and names, and album id. */
function countedFor(tables: IndexTables, s: number) {
  const { snapshots, artists, names, albums } = tables;
  return {
    artists: snapshots.artists.of(s).map((a) => artists.values[a]),
    names: snapshots.artistNames.of(s).map((n) => names.values[n]),
    album: albums.values[snapshots.album[s]!],
  };
}

describe('snapshots counted as the library credits their tracks now', () => {
  it('counts a track credited as when it was played for what it logged, and a renamed or moved one anew', () => {
    const tables = new IndexTables();
    for (let i = 0; i < 40; i += 1) tables.snapshots.intern(snapshot(i));
    const library = new Map(
      Array.from({ length: 40 }, (_, i) => {
        const s = snapshot(i);
        return [s.trackId, { ids: [...s.artistIds], names: [...s.artistNames], albumId: s.albumId }];
      }),
    );
    // As logged: nothing moves.
    expect(tables.snapshots.recount((id) => library.get(id))).toBe(false);
    expect(countedFor(tables, 7)).toEqual({
      artists: ['artist 2', 'artist 3'],
      names: ['Artist 2', 'Artist 3'],
      album: 'album 1',
    });

    // The same artist ids under a new name, a credit split anew, an album moved, a track gone.
    library.set('track 7', {
      ids: ['artist 2', 'artist 3'],
      names: ['Artist Two', 'Artist 3'],
      albumId: 'album 1',
    });
    library.set('track 8', { ids: ['artist 3'], names: ['Artist 3'], albumId: 'album 9' });
    library.delete('track 9');
    expect(tables.snapshots.recount((id) => library.get(id))).toBe(true);
    expect(countedFor(tables, 7)).toEqual({
      artists: ['artist 2', 'artist 3'],
      names: ['Artist Two', 'Artist 3'],
      album: 'album 1',
    });
    expect(countedFor(tables, 8)).toEqual({ artists: ['artist 3'], names: ['Artist 3'], album: 'album 9' });
    expect(countedFor(tables, 9)).toEqual({
      artists: ['artist 4', 'artist 0'],
      names: ['Artist 4', 'Artist 0'],
      album: 'album 0',
    });
    expect(countedFor(tables, 10)).toEqual({
      artists: ['artist 0', 'artist 1'],
      names: ['Artist 0', 'Artist 1'],
      album: 'album 1',
    });

    // A snapshot defined later counts as the library credits its track too.
    library.set('track 40', { ids: ['artist 9'], names: ['Artist 9'], albumId: 'album 7' });
    tables.snapshots.intern(snapshot(40));
    expect(countedFor(tables, 40)).toEqual({ artists: ['artist 9'], names: ['Artist 9'], album: 'album 7' });
  });
});
