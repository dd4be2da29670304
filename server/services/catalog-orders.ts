import type { AlbumRecord, TrackRecord } from '../domain/library.js';
import { byArtist, byName, genreKey, newestFirst, type AlbumShelf } from './album-order.js';

/** The catalog as the orders read it: its name-sorted lists and per-album figures. */
export interface OrderedCatalog extends AlbumShelf {
  albumsByName(): readonly AlbumRecord[];
  tracksByName(): readonly TrackRecord[];
}

/**
 * The album and track orders of one catalog snapshot, each made at its first read and kept with
 * the snapshot (which is replaced, never changed, when the library changes). A page of a list then
 * costs the page, not a sort or a filter of the whole library. Each order is what a sort or filter
 * of the whole library per request gave (album-order.ts and the year and genre filters), ties
 * included.
 */
export class CatalogOrders {
  private newest: readonly AlbumRecord[] | undefined;
  private byArtist: readonly AlbumRecord[] | undefined;
  private latestYears: readonly AlbumRecord[] | undefined;
  private years: { sorted: number[]; albums: Map<number, AlbumRecord[]> } | undefined;
  private albumGenres: Map<string, AlbumRecord[]> | undefined;
  private trackGenres: Map<string, TrackRecord[]> | undefined;
  private artistTracks: Map<string, TrackRecord[]> | undefined;

  constructor(private readonly catalog: OrderedCatalog) {}

  /** Every album, newest first (album-order.ts's newestFirst). */
  newestAlbums(): readonly AlbumRecord[] {
    return (this.newest ??= newestFirst(this.catalog, [...this.catalog.albumsByName()]));
  }

  /** Every album by its first artist's name, then its own (album-order.ts's byArtist). */
  albumsByArtist(): readonly AlbumRecord[] {
    return (this.byArtist ??= byArtist(this.catalog, [...this.catalog.albumsByName()]));
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
