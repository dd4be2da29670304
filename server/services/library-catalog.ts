import type { NamedRef } from '../contract/common.js';
import type { AlbumRecord, ArtistRecord, LibraryIndex, TrackRecord } from '../domain/library.js';
import { CatalogOrders } from './catalog-orders.js';

export interface AlbumStats {
  trackCount: number;
  durationMs: number;
  genres: string[];
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const byName = <T extends { name: string; id: string }>(a: T, b: T) =>
  collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Derived, read-only indexes over one library snapshot: name-sorted lists and per-album/per-artist
 * figures. Built once per library change so list requests do no sorting or grouping.
 */
export class LibraryCatalog {
  private readonly tracks: TrackRecord[];
  private readonly albums: AlbumRecord[];
  private readonly artists: ArtistRecord[];
  private readonly albumNames = new Map<string, string>();
  private readonly albumArtistIds = new Map<string, readonly string[]>();
  /** When each album's first track came into the library (its earliest file time). */
  private readonly albumAdded = new Map<string, number>();
  private readonly artistNames = new Map<string, string>();
  private readonly albumFigures = new Map<string, AlbumStats>();
  private readonly tracksOfArtist = new Map<string, number>();
  private readonly albumsOfArtist = new Map<string, Set<string>>();
  private readonly tracksOfAlbum = new Map<string, TrackRecord[]>();
  /** The album and track orders of this snapshot, made at their first read. */
  readonly orders = new CatalogOrders(this);

  constructor(index: Readonly<LibraryIndex>) {
    this.tracks = [...index.tracks].sort(byName);
    this.albums = [...index.albums].sort(byName);
    this.artists = [...index.artists].sort(byName);
    for (const album of index.albums) {
      this.albumNames.set(album.id, album.name);
      this.albumArtistIds.set(album.id, album.artistIds);
      for (const artistId of album.artistIds) this.addAlbumOfArtist(artistId, album.id);
    }
    for (const artist of index.artists) this.artistNames.set(artist.id, artist.name);
    const tracksOfAlbum = new Map<string, TrackRecord[]>();
    for (const track of index.tracks) {
      if (track.albumId) {
        const list = tracksOfAlbum.get(track.albumId) ?? [];
        list.push(track);
        tracksOfAlbum.set(track.albumId, list);
      }
      for (const artistId of track.artistIds) {
        this.tracksOfArtist.set(artistId, (this.tracksOfArtist.get(artistId) ?? 0) + 1);
        if (track.albumId) this.addAlbumOfArtist(artistId, track.albumId);
      }
    }
    for (const [albumId, tracks] of tracksOfAlbum) {
      this.albumFigures.set(albumId, albumStatsOf(tracks));
      this.albumAdded.set(
        albumId,
        tracks.reduce((first, track) => Math.min(first, track.mtimeMs), Infinity),
      );
      this.tracksOfAlbum.set(albumId, tracks.sort(byPosition));
    }
  }

  private addAlbumOfArtist(artistId: string, albumId: string): void {
    const set = this.albumsOfArtist.get(artistId) ?? new Set<string>();
    set.add(albumId);
    this.albumsOfArtist.set(artistId, set);
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
    const name = this.albumNames.get(id);
    return name === undefined ? null : { id, name };
  }

  artistRefs(ids: readonly string[]): NamedRef[] {
    return ids.flatMap((id) => {
      const name = this.artistNames.get(id);
      return name === undefined ? [] : [{ id, name }];
    });
  }

  /** The album's artists, as named in the library. */
  albumArtists(id: string): NamedRef[] {
    return this.artistRefs(this.albumArtistIds.get(id) ?? []);
  }

  /** The earliest file time of the album's tracks; Infinity for an album without tracks. */
  albumAddedMs(id: string): number {
    return this.albumAdded.get(id) ?? Infinity;
  }

  /** The album's tracks by disc, then track number, then name. */
  albumTracks(id: string): readonly TrackRecord[] {
    return this.tracksOfAlbum.get(id) ?? [];
  }

  /** Ids of the albums an artist made or appears on. */
  artistAlbums(id: string): readonly string[] {
    return [...(this.albumsOfArtist.get(id) ?? [])];
  }

  albumStats(id: string): AlbumStats {
    return this.albumFigures.get(id) ?? albumStatsOf([]);
  }

  artistStats(id: string): { albumCount: number; trackCount: number } {
    return {
      albumCount: this.albumsOfArtist.get(id)?.size ?? 0,
      trackCount: this.tracksOfArtist.get(id) ?? 0,
    };
  }
}

function byPosition(a: TrackRecord, b: TrackRecord): number {
  return (
    (a.discNumber ?? 0) - (b.discNumber ?? 0) ||
    (a.trackNumber ?? Number.MAX_SAFE_INTEGER) - (b.trackNumber ?? Number.MAX_SAFE_INTEGER) ||
    byName(a, b)
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
