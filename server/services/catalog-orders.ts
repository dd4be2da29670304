import type { AlbumRecord, TrackRecord } from '../domain/library.js';
import { byName, genreKey, type AlbumShelf } from './album-order.js';
import { sortedInSteps } from './sorted-in-steps.js';
import { finish, type Steps } from './steps.js';

/** Albums whose sort keys are read between two pauses of an order made in steps. */
const ALBUMS_PER_STEP = 1_000;
/** Tracks whose file time and id are read between two pauses (each id a string made from a column). */
const TRACKS_PER_STEP = 2_000;
/** Comparisons between two pauses of an order's sort: a collator's comparison is cheap but not free. */
const COMPARISONS_PER_STEP = 4_000;

/** The catalog as the orders read it: its name-sorted lists and per-album figures. */
export interface OrderedCatalog extends AlbumShelf {
  albumsByName(): readonly AlbumRecord[];
  tracksByName(): readonly TrackRecord[];
  /** When the album's first file was written (Infinity for an album without tracks). */
  albumAddedMs(albumId: string): number;
}

/**
 * The album and track orders of one catalog snapshot, each made at its first read and kept with
 * the snapshot (which is replaced, never changed, when the library changes). A page of a list then
 * costs the page, not a sort or a filter of the whole library. Each order is what a sort or filter
 * of the whole library per request gave (the comparisons of album-order.ts, the year and genre
 * filters), ties included. The two orders players page through most (newest, by artist) take a
 * collector's library longer to sort than a turn of the event loop may last: `ahead` makes them in steps before
 * anyone asks, and a read that comes first finishes the one it needs at once.
 */
export class CatalogOrders {
  private newest: readonly AlbumRecord[] | undefined;
  private byArtist: readonly AlbumRecord[] | undefined;
  private latestYears: readonly AlbumRecord[] | undefined;
  private years: { sorted: number[]; albums: Map<number, AlbumRecord[]> } | undefined;
  private albumGenres: Map<string, AlbumRecord[]> | undefined;
  private trackGenres: Map<string, TrackRecord[]> | undefined;
  private artistTracks: Map<string, TrackRecord[]> | undefined;
  private newestTracks: readonly TrackRecord[] | undefined;
  /**
   * The sorts `ahead` has begun: a read finishes the one it needs rather than sorting again. Each is
   * let go as it ends: a finished generator still holds what its steps captured (the sort keys).
   */
  private makingNewest: Steps<readonly AlbumRecord[]> | undefined;
  private makingByArtist: Steps<readonly AlbumRecord[]> | undefined;
  private makingNewestTracks: Steps<readonly TrackRecord[]> | undefined;

  constructor(private readonly catalog: OrderedCatalog) {}

  /** Every album, newest first: by when its first track came into the library (earliest file time). */
  newestAlbums(): readonly AlbumRecord[] {
    return this.newest ?? finish((this.makingNewest ??= this.newestInSteps()));
  }

  /** Every album by its first artist's name, then its own. */
  albumsByArtist(): readonly AlbumRecord[] {
    return this.byArtist ?? finish((this.makingByArtist ??= this.byArtistInSteps()));
  }

  /** Every track, the newest file first, then by id (the mixes' "New to you"). */
  tracksByNewest(): readonly TrackRecord[] {
    return this.newestTracks ?? finish((this.makingNewestTracks ??= this.newestTracksInSteps()));
  }

  /** Makes the newest and by-artist orders, pausing between steps (a warm-up after a change). */
  *ahead(): Steps<void> {
    if (!this.newest) yield* (this.makingNewest ??= this.newestInSteps());
    yield;
    if (!this.byArtist) yield* (this.makingByArtist ??= this.byArtistInSteps());
  }

  /** Whether the newest tracks' order is made: `tracksByNewest` then costs nothing. */
  hasTracksByNewest(): boolean {
    return this.newestTracks !== undefined;
  }

  /**
   * Makes the newest tracks' order, pausing between steps, unless it is made: for a reader about to
   * need it (the mixes), not in `ahead`, as a library whose mixes nobody reads would hold it, and a
   * collector's library the garbage of its making, for nothing.
   */
  *tracksByNewestAhead(): Steps<void> {
    if (!this.newestTracks) yield* (this.makingNewestTracks ??= this.newestTracksInSteps());
  }

  /** Every album, the latest year first, albums without a year last; by name within a year. */
  albumsByYear(): readonly AlbumRecord[] {
    return (this.latestYears ??= [...this.catalog.albumsByName()].sort(
      (a, b) => (b.year ?? -1) - (a.year ?? -1) || byName(a.name, b.name),
    ));
  }

  /**
   * The albums of years `from` to `to` (either way round), in that direction; by name within a
   * year. Only the years asked for are copied.
   */
  albumsOfYears(from: number, to: number): AlbumRecord[] {
    const { sorted, albums } = this.yearShelves();
    const [low, high] = from <= to ? [from, to] : [to, from];
    const years = sorted.filter((year) => year >= low && year <= high);
    if (from > to) years.reverse();
    return years.flatMap((year) => albums.get(year)!);
  }

  /** The albums with a track of the genre (ignoring case), by name. */
  albumsOfGenre(genre: string): readonly AlbumRecord[] {
    this.albumGenres ??= groupByGenre(
      this.catalog.albumsByName(),
      (album) => this.catalog.albumStats(album.id).genres,
    );
    return this.albumGenres.get(genreKey(genre)) ?? [];
  }

  /** The tracks of the genre (ignoring case), by name. */
  tracksOfGenre(genre: string): readonly TrackRecord[] {
    this.trackGenres ??= groupByGenre(this.catalog.tracksByName(), (track) => track.genres);
    return this.trackGenres.get(genreKey(genre)) ?? [];
  }

  /** The tracks an artist is credited on, by name. */
  tracksOfArtist(artistId: string): readonly TrackRecord[] {
    if (!this.artistTracks) {
      const shelves = new Map<string, TrackRecord[]>();
      for (const track of this.catalog.tracksByName())
        for (const id of new Set(track.artistIds)) {
          const shelf = shelves.get(id);
          if (shelf) shelf.push(track);
          else shelves.set(id, [track]);
        }
      this.artistTracks = shelves;
    }
    return this.artistTracks.get(artistId) ?? [];
  }

  private *newestInSteps(): Steps<readonly AlbumRecord[]> {
    const albums = this.catalog.albumsByName();
    const added = new Float64Array(albums.length);
    for (let i = 0; i < albums.length; i++) {
      added[i] = this.catalog.albumAddedMs(albums[i]!.id);
      if ((i + 1) % ALBUMS_PER_STEP === 0) yield;
    }
    // Ties (and albums without tracks, whose difference is NaN) go by name: the albums are by name
    // already, and the sort keeps the order of ties.
    const order = yield* sortedInSteps(
      Array.from(albums.keys()),
      (a, b) => added[b]! - added[a]!,
      COMPARISONS_PER_STEP,
    );
    this.makingNewest = undefined;
    return (this.newest = order.map((i) => albums[i]!));
  }

  private *newestTracksInSteps(): Steps<readonly TrackRecord[]> {
    const tracks = this.catalog.tracksByName();
    // Read once: a track's fields are read from the library's columns, an id made anew at each read.
    const added = new Float64Array(tracks.length);
    const ids: string[] = [];
    for (let i = 0; i < tracks.length; i++) {
      const track = tracks[i]!;
      added[i] = track.mtimeMs;
      ids.push(track.id);
      if ((i + 1) % TRACKS_PER_STEP === 0) yield;
    }
    const order = yield* sortedInSteps(
      Array.from(tracks.keys()),
      (a, b) => added[b]! - added[a]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0),
      COMPARISONS_PER_STEP,
    );
    this.makingNewestTracks = undefined;
    return (this.newestTracks = order.map((i) => tracks[i]!));
  }

  private *byArtistInSteps(): Steps<readonly AlbumRecord[]> {
    const albums = this.catalog.albumsByName();
    const artists: string[] = [];
    for (let i = 0; i < albums.length; i++) {
      artists.push(this.catalog.albumArtists(albums[i]!.id)[0]?.name ?? '');
      if ((i + 1) % ALBUMS_PER_STEP === 0) yield;
    }
    const order = yield* sortedInSteps(
      Array.from(albums.keys()),
      (a, b) => byName(artists[a]!, artists[b]!) || byName(albums[a]!.name, albums[b]!.name),
      COMPARISONS_PER_STEP,
    );
    this.makingByArtist = undefined;
    return (this.byArtist = order.map((i) => albums[i]!));
  }

  private yearShelves(): { sorted: number[]; albums: Map<number, AlbumRecord[]> } {
    if (!this.years) {
      const albums = new Map<number, AlbumRecord[]>();
      for (const album of this.catalog.albumsByName()) {
        if (album.year === null) continue;
        const shelf = albums.get(album.year);
        if (shelf) shelf.push(album);
        else albums.set(album.year, [album]);
      }
      this.years = { sorted: [...albums.keys()].sort((a, b) => a - b), albums };
    }
    return this.years;
  }
}

/** Each genre's items in the order given, an item once per genre however many spellings it has. */
function groupByGenre<T>(items: readonly T[], genresOf: (item: T) => readonly string[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    for (const genre of genresOf(item)) {
      const key = genreKey(genre);
      const group = groups.get(key);
      if (!group) groups.set(key, [item]);
      else if (group[group.length - 1] !== item) group.push(item);
    }
  }
  return groups;
}
