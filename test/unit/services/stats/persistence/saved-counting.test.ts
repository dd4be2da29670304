import { describe, expect, it, vi } from 'vitest';
import {
  makeSavedCounting,
  parseSavedCounting,
  savedCountingJson,
  savedNames,
  type SavedCounting,
} from '../../../../../server/services/stats/persistence/saved-counting.js';
import { StatsIndex } from '../../../../../server/services/stats/stats-index.js';
import { StatsNames, type NamesSource } from '../../../../../server/services/stats/stats-names.js';
import { Interner } from '../../../../../server/services/stats/tables/interner.js';
import { snapshotText } from '../../../../../server/store/play-log-codec.js';
import type { TrackNow } from '../../../../../server/services/stats/tables/snapshots.js';
import { playLog, statsIndexOf } from '../../../../factories/plays.js';

/** Plays of twelve tracks, logged with the names and credits the library had then. */
const logs = [
  ...Array.from({ length: 24 }, (_, n) => n % 12).map((i, n) =>
    playLog({
      userId: n < 12 ? 'u1' : 'u2',
      trackId: `t${i}`,
      albumId: `al${i % 3}`,
      albumName: `Album ${i % 3}`,
      artistIds: [`ar${i % 4}`],
      artistNames: [`Artist ${i % 4}`],
      trackName: `Track ${i}`,
      at: Date.UTC(2024, 1, 1) + n,
    }),
  ),
];

/**
 * The library now: most tracks as logged; t1 renamed, t2 credited to a new artist, t3 moved to a
 * new album, t4 gone, album al0 and artist ar3 renamed.
 */
function libraryNow(): NamesSource & { trackNow: NonNullable<NamesSource['trackNow']> } {
  const track = (i: number) => {
    if (i === 4) return undefined;
    return {
      name: i === 1 ? 'Track 1 (Live)' : `Track ${i}`,
      albumId: i === 3 ? 'al9' : `al${i % 3}`,
      artistIds: [i === 2 ? 'ar7' : `ar${i % 4}`],
    };
  };
  const albumNames: Record<string, string> = {
    al0: 'Album 0 (Deluxe)',
    al1: 'Album 1',
    al2: 'Album 2',
    al9: 'New',
  };
  const artistNames: Record<string, string> = { ar0: 'Artist 0', ar1: 'Artist 1', ar2: 'Artist 2' };
  Object.assign(artistNames, { ar3: 'Artist Three', ar7: 'Guest' });
  return {
    trackNow: (id) => (/^t\d+$/u.test(id) ? track(Number(id.slice(1))) : undefined),
    albumName: (id) => albumNames[id] ?? null,
    artistName: (id) => artistNames[id] ?? null,
    albumArtists: (id) => (albumNames[id] ? [{ id: 'ar0', name: 'Artist 0' }] : []),
  };
}

/** The recount's view of the same library. */
function trackNowOf(names: ReturnType<typeof libraryNow>): TrackNow {
  return (trackId) => {
    const now = names.trackNow(trackId);
    return (
      now && {
        ids: [...now.artistIds],
        names: now.artistIds.map((a) => names.artistName(a) ?? ''),
        albumId: now.albumId,
      }
    );
  };
}

const AT = {
  stamp: '0123456789abcdef',
  size: 4096,
  mtimeMs: 1706745600123.456,
  position: { bytes: 10, entries: 3, tail: 'eA==' },
  snapshots: 12,
};

/** Every answer the statistics name: each track, album and artist, and the top lists. */
function named(index: StatsIndex, names: NamesSource) {
  const stats = new StatsNames(() => names, index);
  const ids = index.namedIds();
  const filter = { userId: 'u1' };
  return {
    tracks: ids.tracks.map((id) => stats.track(id)),
    albums: ids.albums.map((id) => [stats.album(id), names.albumArtists(id)]),
    artists: ids.artists.map((id) => stats.artist(id)),
    topArtists: stats.ranked('artists', index.topArtists(filter, 0, 50)),
    topAlbums: stats.ranked('albums', index.topAlbums(filter, 0, 50)),
    topTracks: stats.ranked('tracks', index.topTracks(filter, 0, 50)),
  };
}

describe('the counting saved with the play index', () => {
  it('lets an index loaded before the library answer every name and count as the library would', () => {
    const library = libraryNow();
    const counted = statsIndexOf(logs);
    counted.countAsInLibrary(trackNowOf(library));
    const counting = makeSavedCounting(counted, library, AT)!;
    // Only what differs from the logs is kept: the tracks renamed, credited anew, moved, or on an
    // album or by an artist renamed; the snapshots counted for another artist, name or album.
    expect(counting.moved.map((m) => m.s)).toEqual([2, 3, 7, 11]);
    expect(counting.tracks.map(([id]) => id)).toEqual(['t0', 't1', 't2', 't3', 't6', 't7', 't9', 't11']);
    expect(counting.albums).toEqual([
      ['al0', 'Album 0 (Deluxe)'],
      ['al9', 'New'],
    ]);
    // The artists' new names are those the moved snapshots count with already.
    expect(counting.artists).toEqual([]);

    const loaded = new StatsIndex();
    loaded.countAsSaved(parseSavedCounting(JSON.parse(JSON.stringify(savedCountingJson(counting))))!.moved);
    expect(loaded.load(counted.save())).toBe(true);
    expect(named(loaded, savedNames(counting))).toEqual(named(counted, library));
    // The library, once read, counts them the same: nothing moves.
    expect(named(loaded, library)).toEqual(named(counted, library));
  });

  it('has a start that answers before the library look up in its load what its first reads name, not in those reads', () => {
    // Fed as a log feeds it, so its snapshots are saved as columns with their ids' tables, as a
    // server saves them.
    const fed = new StatsIndex();
    const texts: string[] = [];
    for (const [line, log] of logs.entries()) {
      const text = snapshotText(log);
      if (!texts.includes(text)) texts.push(text);
      fed.add(log, texts.indexOf(text), line * 100);
    }
    const counting = makeSavedCounting(fed, libraryNow(), AT)!;
    // The library unchanged since the counting was saved, and nothing renamed: nothing moved.
    const loaded = new StatsIndex();
    loaded.countAsSaved([]);
    expect(loaded.load(Buffer.concat(fed.takeUnsaved()), texts)).toBe(true);
    // Every saved string put in a look-up at once, as a read before the load had made them would.
    const atOnce = vi.spyOn(Interner.prototype as unknown as { indexAll(): void }, 'indexAll');
    try {
      const logged: NamesSource = { ...savedNames(counting), trackNow: () => undefined };
      const answers = named(loaded, logged);
      expect(answers.topTracks.map((track) => track.name)).toHaveLength(12);
      expect(answers.tracks.map((track) => track.name)).toEqual(
        logs.slice(0, 12).map((log) => log.trackName),
      );
      expect(atOnce).not.toHaveBeenCalled();
    } finally {
      atOnce.mockRestore();
    }
  });

  it('names an older play of a renamed track as the library does, as its newest play already is', () => {
    // Logged as "Old Name" on "Old Album" by "Old Artist", then renamed by a rescan and played again.
    const old = { trackName: 'Old Name', albumName: 'Old Album', artistNames: ['Old Artist'] };
    const renamed = { trackName: 'New Name', albumName: 'New Album', artistNames: ['New Artist'] };
    const plays = [old, renamed].map((names, n) =>
      playLog({ trackId: 't1', albumId: 'al1', artistIds: ['ar1'], ...names, at: Date.UTC(2024, 1, 1) + n }),
    );
    const library: NamesSource = {
      trackNow: (id) => (id === 't1' ? { name: 'New Name', albumId: 'al1', artistIds: ['ar1'] } : undefined),
      albumName: (id) => (id === 'al1' ? 'New Album' : null),
      artistName: (id) => (id === 'ar1' ? 'New Artist' : null),
      albumArtists: () => [],
    };
    const counted = statsIndexOf(plays);
    const counting = makeSavedCounting(counted, library, AT)!;
    const loaded = new StatsIndex();
    loaded.countAsSaved(counting.moved);
    expect(loaded.load(counted.save())).toBe(true);
    const recent = (names: NamesSource) => {
      const stats = new StatsNames(() => names, loaded);
      return loaded.recentPlays({ userId: 'u1' }, 0, 10).map((entry) => stats.track(entry.trackId, entry));
    };
    const fromLibrary = recent(library);
    expect(fromLibrary.map((track) => track.name)).toEqual(['New Name', 'New Name']);
    expect(recent(savedNames(counting))).toEqual(fromLibrary);
  });

  it('is not made when its time is up', () => {
    const counted = statsIndexOf(logs);
    counted.countAsInLibrary(trackNowOf(libraryNow()));
    expect(makeSavedCounting(counted, libraryNow(), AT, () => false)).toBeUndefined();
  });

  it('is read back as it was saved, and refused when it is not whole or not in order', () => {
    const counted = statsIndexOf(logs);
    counted.countAsInLibrary(trackNowOf(libraryNow()));
    const counting = makeSavedCounting(counted, libraryNow(), AT)!;
    const json = JSON.parse(JSON.stringify(savedCountingJson(counting))) as Record<string, unknown>;
    expect(parseSavedCounting(json)).toEqual(counting);
    const moved = counting.moved;
    const broken: Partial<Record<keyof SavedCounting | 'schemaVersion', unknown>>[] = [
      { schemaVersion: 1 },
      { stamp: undefined },
      { size: -1 },
      { mtimeMs: '1706745600123' },
      { moved: [...moved].reverse() },
      { moved: [{ ...moved[0], s: 12 }] },
      { tracks: [['t1', 'Name']] },
      { albumArtists: {} },
    ];
    for (const change of broken)
      expect(parseSavedCounting({ ...json, ...change }), JSON.stringify(change)).toBeUndefined();
    expect(parseSavedCounting('not an object')).toBeUndefined();
  });
});
