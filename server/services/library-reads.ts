import type { NamedRef, Page } from '../contract/common.js';
import type { Album, Artist, RatingSummary, Track } from '../contract/library.js';
import type { AlbumRecord, ArtistRecord, TrackRecord } from '../domain/library.js';
import { isValidId } from '../domain/ids.js';
import type { ArtworkStore, LibraryStore, RatingsStore } from '../domain/ports.js';
import type { RatingKind } from '../domain/rating.js';
import type { Principal } from '../domain/user.js';
import { notFound } from '../errors.js';
import { LibraryCatalog, type AlbumStats } from './library-catalog.js';
import { albumView, artistView, trackView, type LibraryViews } from './library-views.js';
import { pageOf, type ListQuery } from './paging.js';

/**
 * The read side of the music library (LibraryService, which scans and watches the folders): the
 * catalog of the last scan or edit, and the reads of tracks, albums and artists with the caller's
 * ratings. The catalog is replaced, never changed, so a read holds one library throughout.
 */
export abstract class LibraryReads {
  protected catalog: LibraryCatalog;

  constructor(
    protected readonly library: LibraryStore,
    protected readonly ratings: RatingsStore,
    protected readonly artwork: ArtworkStore,
  ) {
    this.catalog = new LibraryCatalog(library.index());
  }

  /** The current read-only catalog; replaced, never changed, when the library changes (search keys on it). */
  snapshot(): LibraryCatalog {
    return this.catalog;
  }

  albumName(id: string): string | null {
    return this.library.album(id)?.name ?? null;
  }

  artistName(id: string): string | null {
    return this.library.artist(id)?.name ?? null;
  }

  albumArtists(albumId: string): NamedRef[] {
    return this.catalog.artistRefs(this.library.album(albumId)?.artistIds ?? []);
  }

  hasTrack(id: string): boolean {
    return isValidId(id) && this.library.track(id) !== undefined;
  }

  track(id: string): TrackRecord {
    const track = isValidId(id) ? this.library.track(id) : undefined;
    if (!track) throw notFound('track_not_found', `Track '${id}' not found`);
    return track;
  }

  /** Whether the library holds a track, album or artist with this id. */
  has(kind: RatingKind, id: string): boolean {
    if (!isValidId(id)) return false;
    if (kind === 'track') return this.library.track(id) !== undefined;
    return (kind === 'album' ? this.library.album(id) : this.library.artist(id)) !== undefined;
  }

  requireAlbum(id: string): void {
    if (!isValidId(id) || !this.library.album(id))
      throw notFound('album_not_found', `Album '${id}' not found`);
  }

  requireArtist(id: string): void {
    if (!isValidId(id) || !this.library.artist(id))
      throw notFound('artist_not_found', `Artist '${id}' not found`);
  }

  // --- records, for protocol adapters (Subsonic) that present them in their own shapes -----------

  /** Every track, album or artist, sorted by name. */
  trackRecords(): readonly TrackRecord[] {
    return this.catalog.tracksByName();
  }

  albumRecords(): readonly AlbumRecord[] {
    return this.catalog.albumsByName();
  }

  artistRecords(): readonly ArtistRecord[] {
    return this.catalog.artistsByName();
  }

  /** The album with this id, if the library holds it (no check of the id's shape: for ids of records). */
  findAlbum(id: string): AlbumRecord | undefined {
    return this.library.album(id);
  }

  album(id: string): AlbumRecord {
    this.requireAlbum(id);
    return this.library.album(id)!;
  }

  artist(id: string): ArtistRecord {
    this.requireArtist(id);
    return this.library.artist(id)!;
  }

  /** The album's tracks in play order (disc, track number, name). */
  albumTracks(albumId: string): readonly TrackRecord[] {
    return this.catalog.albumTracks(albumId);
  }

  /** The albums an artist made or appears on, by name. */
  artistAlbums(artistId: string): AlbumRecord[] {
    return this.catalog
      .artistAlbums(artistId)
      .map((id) => this.library.album(id))
      .filter((album): album is AlbumRecord => album !== undefined)
      .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base', numeric: true }));
  }

  albumStats(albumId: string): AlbumStats {
    return this.catalog.albumStats(albumId);
  }

  // The orders below are made once per library change (catalog-orders.ts), not per request.

  /** Every album, newest first (catalog-orders.ts). */
  newestAlbums(): readonly AlbumRecord[] {
    return this.catalog.orders.newestAlbums();
  }

  /** Every track, the newest file first, then by id (catalog-orders.ts). */
  tracksByNewest(): readonly TrackRecord[] {
    return this.catalog.orders.tracksByNewest();
  }

  /** Every album by its first artist's name, then its own. */
  albumsByArtist(): readonly AlbumRecord[] {
    return this.catalog.orders.albumsByArtist();
  }

  /** Every album, the latest year first, albums without a year last. */
  albumsByYear(): readonly AlbumRecord[] {
    return this.catalog.orders.albumsByYear();
  }

  /** The albums of years `from` to `to`, in that direction (newest first when `from` is later). */
  albumsOfYears(from: number, to: number): readonly AlbumRecord[] {
    return this.catalog.orders.albumsOfYears(from, to);
  }

  /** The albums with a track of the genre (ignoring case), by name. */
  albumsOfGenre(genre: string): readonly AlbumRecord[] {
    return this.catalog.orders.albumsOfGenre(genre);
  }

  /** The tracks of the genre (ignoring case), by name. */
  tracksOfGenre(genre: string): readonly TrackRecord[] {
    return this.catalog.orders.tracksOfGenre(genre);
  }

  /** The tracks an artist is credited on, by name. */
  artistTracks(artistId: string): readonly TrackRecord[] {
    return this.catalog.orders.tracksOfArtist(artistId);
  }

  /** When the album's first track came into the library; Infinity for an album without tracks. */
  albumAddedMs(albumId: string): number {
    return this.catalog.albumAddedMs(albumId);
  }

  /** An artist's album and track counts. */
  artistStats(artistId: string): { albumCount: number; trackCount: number } {
    return this.catalog.artistStats(artistId);
  }

  /** The caller's and everyone's rating of an item. */
  ratingOf(kind: RatingKind, id: string, caller: Principal): RatingSummary {
    return this.ratings.summary(kind, id, caller.userId);
  }

  // --- read views --------------------------------------------------------------------------------

  listTracks(caller: Principal, query: ListQuery): Page<Track> {
    return pageOf(this.catalog.tracksByName(query.q), query, (track) => trackView(this.views, track, caller));
  }

  listAlbums(caller: Principal, query: ListQuery): Page<Album> {
    return pageOf(this.catalog.albumsByName(query.q), query, (album) =>
      albumView(this.views, album.id, caller),
    );
  }

  listArtists(caller: Principal, query: ListQuery): Page<Artist> {
    return pageOf(this.catalog.artistsByName(query.q), query, (artist) =>
      artistView(this.views, artist.id, caller),
    );
  }

  /** The tracks of a list (a playlist, a mix) in its order; ids no longer in the library are left out. */
  tracksOf(caller: Principal, ids: readonly string[]): Track[] {
    return ids.filter((id) => this.hasTrack(id)).map((id) => trackView(this.views, this.track(id), caller));
  }

  getTrack(caller: Principal, id: string): Track {
    return trackView(this.views, this.track(id), caller);
  }

  getAlbum(caller: Principal, id: string): Album {
    this.requireAlbum(id);
    return albumView(this.views, id, caller);
  }

  getArtist(caller: Principal, id: string): Artist {
    this.requireArtist(id);
    return artistView(this.views, id, caller);
  }

  protected get views(): LibraryViews {
    return { catalog: this.catalog, library: this.library, ratings: this.ratings, artwork: this.artwork };
  }
}
