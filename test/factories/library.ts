import type {
  AlbumRecord,
  ArtistRecord,
  ArtworkInfo,
  LibraryIndex,
  TrackRecord,
} from '../../server/domain/library.js';
import type { Scanner } from '../../server/services/library-service.js';

/**
 * A small synthetic library for stats and rating tests that do not need real files: ids are
 * readable (`t1`, `al1`, `ar1`) so assertions say what they mean.
 */
export interface TrackSpec {
  id: string;
  name?: string;
  albumId?: string | null;
  artistIds?: string[];
  genres?: string[];
  durationMs?: number;
}

export function makeLibrary(spec: {
  artists: Array<{ id: string; name?: string }>;
  albums: Array<{ id: string; name?: string; artistIds?: string[] }>;
  tracks: TrackSpec[];
}): LibraryIndex {
  const artists: ArtistRecord[] = spec.artists.map((a) => ({ id: a.id, name: a.name ?? `Artist ${a.id}` }));
  const albums: AlbumRecord[] = spec.albums.map((a) => ({
    id: a.id,
    name: a.name ?? `Album ${a.id}`,
    artistIds: a.artistIds ?? [],
    year: 2020,
  }));
  const tracks: TrackRecord[] = spec.tracks.map((t, i) => ({
    id: t.id,
    path: `/music/${t.id}.mp3`,
    size: 1000 + i,
    mtimeMs: 0,
    name: t.name ?? `Track ${t.id}`,
    albumId: t.albumId === undefined ? (albums[0]?.id ?? null) : t.albumId,
    artistIds: t.artistIds ?? [],
    genres: t.genres ?? [],
    durationMs: t.durationMs ?? 180_000,
    trackNumber: i + 1,
    discNumber: 1,
    year: 2020,
    format: 'mp3',
    artwork: [],
  }));
  return { tracks, albums, artists };
}

/** One artist (ar1) and their one album (al1) of `count` tracks by them: t1, t2, … */
export function oneAlbumLibrary(count: number): LibraryIndex {
  return makeLibrary({
    artists: [{ id: 'ar1' }],
    albums: [{ id: 'al1', artistIds: ['ar1'] }],
    tracks: Array.from({ length: count }, (_, i) => ({ id: `t${i + 1}`, artistIds: ['ar1'] })),
  });
}

/** A scanner that "finds" whatever library the test sets, like a folder whose files change. */
export function fakeScanner(initial: LibraryIndex): Scanner & { set(next: LibraryIndex): void } {
  let current = initial;
  const scan: Scanner = async () => {
    await Promise.resolve();
    const count = current.tracks.length;
    return {
      index: current,
      progress: {
        running: false,
        filesSeen: count,
        filesTotal: count,
        added: count,
        updated: 0,
        removed: 0,
        errors: [],
      },
    };
  };
  return Object.assign(scan, {
    set(next: LibraryIndex) {
      current = next;
    },
  });
}

/** A 1 × 1 PNG front cover of 10 bytes at position `pos` in a track's tags, as the scanner lists it. */
export function coverAt(pos: number): ArtworkInfo {
  return { pos, type: 'Cover (front)', mime: 'image/png', width: 1, height: 1, size: 10 };
}
