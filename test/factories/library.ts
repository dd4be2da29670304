import {
  plainTrack,
  type AlbumRecord,
  type ArtistRecord,
  type ArtworkInfo,
  type LibraryIndex,
  type TrackRecord,
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

/** What sets a track apart from the defaults of `makeLibrary` and from its album. */
export type TrackDetails = Partial<Omit<TrackRecord, 'id' | 'name' | 'albumId'>>;
/** What sets an album apart from the defaults of `makeLibrary`. */
export type AlbumDetails = Partial<Omit<AlbumRecord, 'id' | 'name' | 'artistIds'>>;

export interface TrackEntry {
  kind: 'track';
  id: string;
  name: string;
  details: TrackDetails;
}
export interface AlbumEntry {
  kind: 'album';
  id: string;
  name: string;
  details: AlbumDetails;
  tracks: TrackEntry[];
}
export interface ArtistEntry {
  kind: 'artist';
  id: string;
  name: string;
  works: Array<AlbumEntry | TrackEntry>;
}

/** A track; inside an album or under an artist it takes their ids unless `details` names its artists. */
export function track(id: string, name: string, details: TrackDetails = {}): TrackEntry {
  return { kind: 'track', id, name, details };
}

/** An album and its tracks in play order, with its year or other details before them if any. */
export function album(id: string, name: string, tracks: TrackEntry[]): AlbumEntry;
export function album(id: string, name: string, details: AlbumDetails, tracks: TrackEntry[]): AlbumEntry;
export function album(
  id: string,
  name: string,
  ...rest: [TrackEntry[]] | [AlbumDetails, TrackEntry[]]
): AlbumEntry {
  const [details, tracks] = rest.length === 1 ? [{}, rest[0]] : rest;
  return { kind: 'album', id, name, details, tracks };
}

/** An artist with their albums, and the tracks of theirs that belong to no album. */
export function artist(id: string, name: string, works: Array<AlbumEntry | TrackEntry> = []): ArtistEntry {
  return { kind: 'artist', id, name, works };
}

/**
 * A library said as a reader thinks of it: each artist with their albums and those albums'
 * tracks, and at the top level any track of neither album nor artist. Records come out in the
 * order written, with the defaults of `makeLibrary`:
 *
 *     libraryOf([artist('ar1', 'Aurora Lane', [album('al1', 'First Light', [track('t1', 'Dawn')])])])
 */
export function libraryOf(entries: Array<ArtistEntry | TrackEntry>): LibraryIndex {
  const artists: Array<{ id: string; name: string }> = [];
  const albums: Array<{ id: string; name: string; artistIds: string[] }> = [];
  const tracks: TrackSpec[] = [];
  const albumDetails: AlbumDetails[] = [];
  const trackDetails: TrackDetails[] = [];
  const add = (entry: TrackEntry, albumId: string | null, artistIds: string[]) => {
    tracks.push({ id: entry.id, name: entry.name, albumId, artistIds: entry.details.artistIds ?? artistIds });
    trackDetails.push(entry.details);
  };
  for (const entry of entries) {
    if (entry.kind === 'track') {
      add(entry, null, []);
      continue;
    }
    artists.push({ id: entry.id, name: entry.name });
    for (const work of entry.works) {
      if (work.kind === 'track') {
        add(work, null, [entry.id]);
        continue;
      }
      albums.push({ id: work.id, name: work.name, artistIds: [entry.id] });
      albumDetails.push(work.details);
      for (const inner of work.tracks) add(inner, work.id, [entry.id]);
    }
  }
  const index = makeLibrary({ artists, albums, tracks });
  index.albums.forEach((record, i) => Object.assign(record, albumDetails[i]));
  index.tracks.forEach((record, i) => Object.assign(record, trackDetails[i]));
  return index;
}

/** A scanner that "finds" whatever library the test sets, like a folder whose files change. */
export function fakeScanner(initial: LibraryIndex): Scanner & { set(next: LibraryIndex): void } {
  let current = initial;
  const scan: Scanner = async () => {
    await Promise.resolve();
    const count = current.tracks.length;
    return {
      // New lists each scan, as the scanner makes: the store takes a scan's lists over.
      index: { tracks: [...current.tracks], albums: [...current.albums], artists: [...current.artists] },
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

/** The library with its tracks as plain records: a store's tracks are views whose fields are getters. */
export function plainLibrary(index: Readonly<LibraryIndex>): LibraryIndex {
  return { tracks: index.tracks.map(plainTrack), albums: [...index.albums], artists: [...index.artists] };
}
