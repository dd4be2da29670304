import type { NamedRef } from '../../../contract/common.js';
import type { RecentPlay, StatsRef } from '../../../contract/stats.js';
import type { LogPosition } from '../../../store/play-log.js';
import { StatsNames, type NamesSource } from '../stats-names.js';
import type { StatsIndex } from '../stats-index.js';
import type { CountedAs } from '../tables/snapshots.js';

/**
 * What the statistics take from the library, saved with the play index (`plays.counting`) for the
 * library.json of one stamp, so that a start answers statistics before it reads the library (a
 * collector's takes seconds): how the plays count in that library (the recount's result: the
 * snapshots counted for other artists or another album than they logged), and the names the reads
 * would take from it where they differ from the names the plays logged. Both are usually small: a
 * library rarely differs from what was logged against it.
 *
 * It fits a start only when the library's stamp, the saved index's last position and its snapshots
 * are those it was made with, and no log line came after that position: then the statistics are
 * those the library would give, before it is read. Anything else and it is ignored (the start
 * reads the library first, as without it).
 */
export interface SavedCounting {
  /** library.json's stamp (library-file.ts). */
  stamp: string;
  /** Where the saved index ended when it was made. */
  position: LogPosition;
  /** How many snapshots the index held. */
  snapshots: number;
  /** The snapshots counted otherwise than logged, by ascending number. */
  moved: CountedAs[];
  /** Tracks the library names otherwise than their newest log did: name, album, artists. */
  tracks: [id: string, name: string, albumId: string | null, artistIds: string[]][];
  /** Albums and artists the library names otherwise than the plays' newest names. */
  albums: [id: string, name: string][];
  artists: [id: string, name: string][];
  /** Each album's artists in the library (those with any). */
  albumArtists: [albumId: string, artists: [id: string, name: string][]][];
}

const SCHEMA_VERSION = 1;

const isString = (v: unknown): v is string => typeof v === 'string';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isPairs = (v: unknown): v is [string, string][] =>
  Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && isString(p[0]) && isString(p[1]));
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isMoved = (v: unknown): v is CountedAs => {
  const m = v as Partial<CountedAs> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    isCount(m.s) &&
    (m.albumId === null || isString(m.albumId)) &&
    isStrings(m.artistIds) &&
    isStrings(m.artistNames)
  );
};
const isTrack = (v: unknown): v is SavedCounting['tracks'][number] =>
  Array.isArray(v) &&
  v.length === 4 &&
  isString(v[0]) &&
  isString(v[1]) &&
  (v[2] === null || isString(v[2])) &&
  isStrings(v[3]);
const isAlbumArtists = (v: unknown): v is SavedCounting['albumArtists'][number] =>
  Array.isArray(v) && v.length === 2 && isString(v[0]) && isPairs(v[1]);

/**
 * The saved counting in `value` (as read from the file); undefined when it is not one. Checked by
 * hand, in one pass: it is read as the server starts, and a schema library takes many times longer
 * over tens of thousands of small tuples.
 */
export function parseSavedCounting(value: unknown): SavedCounting | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { schemaVersion, stamp, position, snapshots, moved, tracks, albums, artists, albumArtists } =
    value as Record<keyof SavedCounting | 'schemaVersion', unknown>;
  const at = position as Partial<LogPosition> | null;
  if (
    schemaVersion !== SCHEMA_VERSION ||
    !isString(stamp) ||
    typeof at !== 'object' ||
    at === null ||
    !isCount(at.bytes) ||
    !isCount(at.entries) ||
    !isString(at.tail) ||
    !isCount(snapshots) ||
    !Array.isArray(moved) ||
    !moved.every(isMoved) ||
    !Array.isArray(tracks) ||
    !tracks.every(isTrack) ||
    !isPairs(albums) ||
    !isPairs(artists) ||
    !Array.isArray(albumArtists) ||
    !albumArtists.every(isAlbumArtists)
  )
    return undefined;
  // In order and within the snapshots, as countedOtherwise makes them.
  if (!moved.every((m, i) => m.s < snapshots && (i === 0 || moved[i - 1]!.s < m.s))) return undefined;
  const kept = { bytes: at.bytes, entries: at.entries, tail: at.tail };
  return { stamp, position: kept, snapshots, moved, tracks, albums, artists, albumArtists };
}

/** The file's JSON for `counting`. */
export function savedCountingJson(counting: SavedCounting): unknown {
  return { schemaVersion: SCHEMA_VERSION, ...counting };
}

/** Names none: the statistics' names when nothing is known of the library. */
const NO_LIBRARY: NamesSource = {
  trackNow: () => undefined,
  albumName: () => null,
  artistName: () => null,
  albumArtists: () => [],
};

/**
 * The counting of a loaded `index` in the library `names` stands for (the index counted as that
 * library says: SnapshotTable.recount), to save with the index at its position.
 */
export function makeSavedCounting(
  index: StatsIndex,
  names: NamesSource,
  at: { stamp: string; position: LogPosition; snapshots: number },
): SavedCounting {
  // The track being compared, looked up once (a lookup makes a record of the track each time).
  let looked: { id: string; now: ReturnType<NamesSource['trackNow']> } = { id: '', now: undefined };
  const once: NamesSource = {
    ...names,
    trackNow: (id) => (id === looked.id ? looked.now : names.trackNow(id)),
  };
  const withLibrary = new StatsNames(() => once, index);
  const logged = new StatsNames(() => NO_LIBRARY, index);
  const ids = index.namedIds();
  const tracks: SavedCounting['tracks'] = [];
  const albumIds = new Set(ids.albums);
  const artistIds = new Set(ids.artists);
  for (const id of ids.tracks) {
    const now = names.trackNow(id);
    if (!now) continue;
    looked = { id, now };
    if (sameTrack(withLibrary.track(id), logged.track(id))) continue;
    tracks.push([id, now.name, now.albumId, [...now.artistIds]]);
    if (now.albumId !== null) albumIds.add(now.albumId);
    for (const artist of now.artistIds) artistIds.add(artist);
  }
  // A name the library gives that the plays' newest names do not.
  const renamed = (kind: 'album' | 'artist', all: Set<string>) => {
    const out: [string, string][] = [];
    for (const id of all) {
      const name = kind === 'album' ? names.albumName(id) : names.artistName(id);
      if (name !== null && name !== index.snapshotName(kind, id)) out.push([id, name]);
    }
    return out;
  };
  const albumArtists: SavedCounting['albumArtists'] = [];
  for (const id of ids.albums) {
    const refs = names.albumArtists(id);
    if (refs.length > 0) albumArtists.push([id, refs.map((ref) => [ref.id, ref.name])]);
  }
  return {
    ...at,
    moved: index.countedOtherwise(),
    tracks,
    albums: renamed('album', albumIds),
    artists: renamed('artist', artistIds),
    albumArtists,
  };
}

/** Whether two answers name a track alike. */
function sameTrack(a: RecentPlay['track'], b: RecentPlay['track']): boolean {
  const same = (x: StatsRef | null, y: StatsRef | null) => x?.id === y?.id && x?.name === y?.name;
  return (
    a.name === b.name &&
    same(a.album, b.album) &&
    a.artists.length === b.artists.length &&
    a.artists.every((artist, i) => same(artist, b.artists[i]!))
  );
}

/**
 * The library as a saved counting names it (NamesSource): what it saved, else nothing, for the
 * statistics to take the plays' own names, as they do for what the library has not.
 */
export function savedNames(counting: SavedCounting): NamesSource {
  const tracks = new Map(
    counting.tracks.map(([id, name, albumId, artistIds]) => [id, { name, albumId, artistIds }]),
  );
  const albums = new Map(counting.albums);
  const artists = new Map(counting.artists);
  const albumArtists = new Map<string, NamedRef[]>(
    counting.albumArtists.map(([id, refs]) => [id, refs.map(([ref, name]) => ({ id: ref, name }))]),
  );
  return {
    trackNow: (id) => tracks.get(id),
    albumName: (id) => albums.get(id) ?? null,
    artistName: (id) => artists.get(id) ?? null,
    albumArtists: (id) => albumArtists.get(id) ?? [],
  };
}
