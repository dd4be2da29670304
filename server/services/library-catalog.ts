import type { NamedRef } from '../contract/common.js';
import type { AlbumRecord, ArtistRecord, LibraryIndex, TrackRecord } from '../domain/library.js';
import { CatalogOrders } from './catalog-orders.js';
import { sortedInSteps } from './sorted-in-steps.js';
import { finish } from './steps.js';
import { sortInSteps } from './stats/sums/sort-in-steps.js';

export interface AlbumStats {
  trackCount: number;
  durationMs: number;
  genres: string[];
}

const EMPTY: Readonly<LibraryIndex> = { tracks: [], albums: [], artists: [] };
/** Tracks, and albums with their tracks, taken between pauses of a catalog made in steps. */
const TRACKS_PER_STEP = 5_000;
const ALBUMS_PER_STEP = 500;
/** Comparisons of names between pauses of the sorts: a collator's comparison costs about a microsecond. */
const COMPARISONS_PER_STEP = 4_000;

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const byName = <T extends { name: string; id: string }>(a: T, b: T) =>
  collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** What the catalog knows of one album id (the album's record may be gone: its tracks still count). */
interface AlbumEntry {
  /** Undefined when no album record has this id. */
  name: string | undefined;
  artistIds: readonly string[];
  /** The album's tracks by disc, then track number, then name. */
  tracks: TrackRecord[];
  /** When the album's first track came into the library (its earliest file time). */
  added: number;
  /** Its tracks' total duration, and genres: AlbumStats without the count, which is `tracks`'s. */
  durationMs: number;
  genres: readonly string[];
}

/** What the catalog knows of one artist id. */
interface ArtistEntry {
  /** Undefined when no artist record has this id. */
  name: string | undefined;
  trackCount: number;
  /** The albums they made or appear on, each once, in the order first seen. */
  albums: string[];
}

/**
 * Derived, read-only indexes over one library snapshot: name-sorted lists and per-album/per-artist
 * figures. Built once per library change so list requests do no sorting or grouping. One entry per
 * album and per artist holds all of its figures: a map per figure cost a hash table each at every
 * album and artist of a collector's library.
 */
export class LibraryCatalog {
  // Set once, by `fill`, before anyone reads the catalog.
  private tracks: TrackRecord[] = [];
  private albums: AlbumRecord[] = [];
  private artists: ArtistRecord[] = [];
  private readonly albumEntries = new Map<string, AlbumEntry>();
  private readonly artistEntries = new Map<string, ArtistEntry>();
  /** The album and track orders of this snapshot, made at their first read. */
  readonly orders = new CatalogOrders(this);

  constructor(index: Readonly<LibraryIndex>) {
    finish(this.fill(index));
  }

  /**
   * The catalog of `index` made in steps, a pause between its parts (the library read after the
   * server listens: at a collector's size each part is a long piece of work). Nothing may read it
   * until it ends.
   */
  static *inSteps(index: Readonly<LibraryIndex>): Generator<void, LibraryCatalog> {
    const catalog = new LibraryCatalog(EMPTY);
    yield* catalog.fill(index);
    return catalog;
  }

  private *fill(index: Readonly<LibraryIndex>): Generator<void, void> {
    this.tracks = yield* sortedByName(index.tracks);
    yield;
    this.albums = yield* sortedInSteps(index.albums, byName, COMPARISONS_PER_STEP);
    this.artists = yield* sortedInSteps(index.artists, byName, COMPARISONS_PER_STEP);
    yield;
    // Sets only while building: an artist's albums each once, then kept as a list.
    const albumsOfArtist = new Map<string, Set<string>>();
    const addAlbumOfArtist = (artistId: string, albumId: string) => {
      const set = albumsOfArtist.get(artistId);
      if (set) set.add(albumId);
      else albumsOfArtist.set(artistId, new Set([albumId]));
    };
    for (const album of index.albums) {
      this.albumEntry(album.id).name = album.name;
      this.albumEntry(album.id).artistIds = album.artistIds;
      for (const artistId of album.artistIds) addAlbumOfArtist(artistId, album.id);
    }
    for (const artist of index.artists) this.artistEntry(artist.id).name = artist.name;
    yield;
    // In name order, so that a stable sort by disc and number leaves tracks in the same place by
    // name (a name read for each comparison is made anew from the library's columns).
    for (const [i, track] of this.tracks.entries()) {
      if (i > 0 && i % TRACKS_PER_STEP === 0) yield;
      if (track.albumId) this.albumEntry(track.albumId).tracks.push(track);
    }
    for (const [i, track] of index.tracks.entries()) {
      if (i > 0 && i % TRACKS_PER_STEP === 0) yield;
      for (const artistId of track.artistIds) {
        this.artistEntry(artistId).trackCount++;
        if (track.albumId) addAlbumOfArtist(artistId, track.albumId);
      }
    }
    yield;
    let albums = 0;
    for (const entry of this.albumEntries.values()) {
      if (entry.tracks.length === 0) continue;
      albums += 1;
      if (albums % ALBUMS_PER_STEP === 0) yield;
      const { durationMs, genres } = albumStatsOf(entry.tracks);
      entry.durationMs = durationMs;
      entry.genres = genres;
      entry.added = entry.tracks.reduce((first, track) => Math.min(first, track.mtimeMs), Infinity);
      // A copy of the length it needs: an array grown by a push at a time keeps room for more.
      entry.tracks = entry.tracks.sort(byDiscAndNumber).slice();
    }
    for (const [artistId, albums] of albumsOfArtist) this.artistEntry(artistId).albums = [...albums];
  }

  private albumEntry(id: string): AlbumEntry {
    let entry = this.albumEntries.get(id);
    if (!entry) {
      entry = { name: undefined, artistIds: NONE, tracks: [], added: Infinity, durationMs: 0, genres: NONE };
      this.albumEntries.set(id, entry);
    }
    return entry;
  }

  private artistEntry(id: string): ArtistEntry {
    let entry = this.artistEntries.get(id);
    if (!entry) {
      entry = { name: undefined, trackCount: 0, albums: NONE as string[] };
      this.artistEntries.set(id, entry);
    }
    return entry;
  }

  tracksByName(q?: string): readonly TrackRecord[] {
    return search(this.tracks, q);
  }

  albumsByName(q?: string): readonly AlbumRecord[] {
    return search(this.albums, q);
  }

  artistsByName(q?: string): readonly ArtistRecord[] {
    return search(this.artists, q);
  }

  albumRef(id: string | null): NamedRef | null {
    if (id === null) return null;
    const name = this.albumEntries.get(id)?.name;
    return name === undefined ? null : { id, name };
  }

  artistRefs(ids: readonly string[]): NamedRef[] {
    return ids.flatMap((id) => {
      const name = this.artistEntries.get(id)?.name;
      return name === undefined ? [] : [{ id, name }];
    });
  }

  /** The album's artists, as named in the library. */
  albumArtists(id: string): NamedRef[] {
    return this.artistRefs(this.albumEntries.get(id)?.artistIds ?? []);
  }

  /** The earliest file time of the album's tracks; Infinity for an album without tracks. */
  albumAddedMs(id: string): number {
    return this.albumEntries.get(id)?.added ?? Infinity;
  }

  /** The album's tracks by disc, then track number, then name. */
  albumTracks(id: string): readonly TrackRecord[] {
    return this.albumEntries.get(id)?.tracks ?? [];
  }

  /** Ids of the albums an artist made or appears on. */
  artistAlbums(id: string): readonly string[] {
    return [...(this.artistEntries.get(id)?.albums ?? [])];
  }

  albumStats(id: string): AlbumStats {
    const entry = this.albumEntries.get(id);
    if (!entry || entry.tracks.length === 0) return albumStatsOf([]);
    return {
      trackCount: entry.tracks.length,
      durationMs: entry.durationMs,
      genres: entry.genres as string[],
    };
  }

  artistStats(id: string): { albumCount: number; trackCount: number } {
    const entry = this.artistEntries.get(id);
    return { albumCount: entry?.albums.length ?? 0, trackCount: entry?.trackCount ?? 0 };
  }
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * The tracks by name, each name read once: a stored track's name is made from its column at each
 * read, so a sort comparing records would make two names at each of its millions of comparisons.
 * In steps, names read and sorted a few thousand at a time.
 */
function* sortedByName(tracks: readonly TrackRecord[]): Generator<void, TrackRecord[]> {
  const names: string[] = [];
  for (let at = 0; at < tracks.length; at++) {
    names.push(tracks[at]!.name);
    if ((at + 1) % TRACKS_PER_STEP === 0) yield;
  }
  const order = new Int32Array(tracks.length);
  for (let at = 0; at < order.length; at++) order[at] = at;
  yield* sortInSteps(
    order,
    (a, b) => {
      const byText = collator.compare(names[a]!, names[b]!);
      if (byText !== 0) return byText;
      const [x, y] = [tracks[a]!.id, tracks[b]!.id];
      // Places last: one order whatever the sort, as Array#sort kept equal tracks.
      return x < y ? -1 : x > y ? 1 : a - b;
    },
    COMPARISONS_PER_STEP,
  );
  // Array.from grows its list as it goes; a copy is as long as the library and held as long.
  return Array.from(order, (at) => tracks[at]!).slice();
}

/** Tracks already in name order: the sort is stable, so ties stay by name. */
function byDiscAndNumber(a: TrackRecord, b: TrackRecord): number {
  return (
    (a.discNumber ?? 0) - (b.discNumber ?? 0) ||
    (a.trackNumber ?? Number.MAX_SAFE_INTEGER) - (b.trackNumber ?? Number.MAX_SAFE_INTEGER)
  );
}

/** An album's track count, total duration and genres (first spelling of each, ignoring case). */
function albumStatsOf(tracks: readonly TrackRecord[]): AlbumStats {
  const genres = new Map<string, string>();
  for (const track of tracks)
    for (const genre of track.genres)
      if (!genres.has(genre.toLowerCase())) genres.set(genre.toLowerCase(), genre);
  return {
    trackCount: tracks.length,
    durationMs: tracks.reduce((total, track) => total + track.durationMs, 0),
    genres: [...genres.values()],
  };
}

function search<T extends { name: string }>(sorted: readonly T[], q?: string): readonly T[] {
  if (!q) return sorted;
  const needle = q.toLocaleLowerCase('en');
  return sorted.filter((item) => item.name.toLocaleLowerCase('en').includes(needle));
}
