import { z } from 'zod';
import type { NamedRef } from '../../../contract/common.js';
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

const pair = z.tuple([z.string(), z.string()]);
const schema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  stamp: z.string(),
  position: z.object({ bytes: z.number(), entries: z.number(), tail: z.string() }),
  snapshots: z.int().min(0),
  moved: z.array(
    z.object({
      s: z.int().min(0),
      albumId: z.string().nullable(),
      artistIds: z.array(z.string()),
      artistNames: z.array(z.string()),
    }),
  ),
  tracks: z.array(z.tuple([z.string(), z.string(), z.string().nullable(), z.array(z.string())])),
  albums: z.array(pair),
  artists: z.array(pair),
  albumArtists: z.array(z.tuple([z.string(), z.array(pair)])),
});

/** The saved counting in `value` (as read from the file); undefined when it is not one. */
export function parseSavedCounting(value: unknown): SavedCounting | undefined {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return undefined;
  const { stamp, position, snapshots, moved, tracks, albums, artists, albumArtists } = parsed.data;
  const counting = { stamp, position, snapshots, moved, tracks, albums, artists, albumArtists };
  // In order and within the snapshots, as countedOtherwise makes them.
  const ordered = counting.moved.every(
    (m, i) => m.s < counting.snapshots && (i === 0 || counting.moved[i - 1]!.s < m.s),
  );
  return ordered ? counting : undefined;
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
  const withLibrary = new StatsNames(() => names, index);
  const logged = new StatsNames(() => NO_LIBRARY, index);
  const ids = index.namedIds();
  const tracks: SavedCounting['tracks'] = [];
  const albumIds = new Set(ids.albums);
  const artistIds = new Set(ids.artists);
  for (const id of ids.tracks) {
    const now = names.trackNow(id);
    if (!now) continue;
    if (JSON.stringify(withLibrary.track(id)) === JSON.stringify(logged.track(id))) continue;
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
