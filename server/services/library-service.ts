import type { Clock } from '../clock.js';
import { isValidId } from '../domain/ids.js';
import type { LibraryIndex, TrackRecord, TrackTags } from '../domain/library.js';
import type { RatingKind } from '../domain/rating.js';
import type { Principal } from '../domain/user.js';
import { notFound, messageOf } from '../errors.js';
import type { ScanProgress } from '../library/scanner.js';
import type { Logger } from '../logger.js';
import type { ArtworkRepo } from '../store/artwork-repo.js';
import type { LibraryRepo } from '../store/library-repo.js';
import type { RatingSummary, RatingsRepo } from '../store/ratings-repo.js';
import { LibraryCatalog, type NamedRef } from './library-catalog.js';

export type Scanner = (
  dirs: string[],
  previous: LibraryIndex,
  onProgress?: (progress: ScanProgress) => void,
) => Promise<{ index: LibraryIndex; progress: ScanProgress }>;

export interface Page<T> {
  items: T[];
  page: number;
  count: number;
  total: number;
}

export interface TrackView extends TrackTags, RatingSummary {
  id: string;
  album: NamedRef | null;
  artists: NamedRef[];
  path?: string;
}

export interface AlbumView extends RatingSummary {
  id: string;
  name: string;
  artists: NamedRef[];
  year: number | null;
  trackCount: number;
  durationMs: number;
  genres: string[];
}

export interface ArtistView extends RatingSummary {
  id: string;
  name: string;
  albumCount: number;
  trackCount: number;
  pfpCount: number;
  bannerCount: number;
}

const idleProgress = (): ScanProgress => ({
  running: false,
  filesSeen: 0,
  filesTotal: 0,
  added: 0,
  updated: 0,
  removed: 0,
  errors: [],
});

/**
 * The music library: scanning (in the background, one scan at a time) and the read views of
 * tracks, albums and artists with the caller's ratings.
 */
export class LibraryService {
  private catalog: LibraryCatalog;
  private progress: ScanProgress = idleProgress();
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Tracks re-read while a scan runs (artwork edits): the scan's result must not undo them. */
  private changedDuringScan = new Map<string, TrackRecord>();
  private readonly scanListeners: Array<() => void> = [];

  constructor(
    private readonly library: LibraryRepo,
    private readonly ratings: RatingsRepo,
    private readonly artwork: ArtworkRepo,
    private readonly dirs: string[],
    private readonly scanner: Scanner,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {
    this.catalog = new LibraryCatalog(library.index());
  }

  /** Starts a scan unless one is running; either way answers the current progress. */
  startScan(): ScanProgress {
    if (!this.running && !this.stopped) {
      this.progress = { ...idleProgress(), running: true };
      this.running = this.scan().finally(() => {
        this.running = null;
      });
    }
    return this.scanStatus();
  }

  /** Called after every scan that changed the library record (e.g. to match unmatched listens again). */
  onScanned(listener: () => void): void {
    this.scanListeners.push(listener);
  }

  scanStatus(): ScanProgress {
    return { ...this.progress, errors: [...this.progress.errors] };
  }

  /** On shutdown: no new scans, and a running scan's result is dropped instead of written. */
  stopScanning(): void {
    this.stopped = true;
  }

  /** Resolves once no scan is running (an update waits for this before it replaces the app). */
  async waitForIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async scan(): Promise<void> {
    const started = this.clock.now();
    try {
      const { index, progress } = await this.scanner(this.dirs, this.library.index(), (update) => {
        this.progress = { ...update, running: true };
      });
      if (this.stopped) return;
      // The scan may have read a file before an edit landed; the record re-read after it wins.
      const changed = this.changedDuringScan;
      this.changedDuringScan = new Map();
      if (changed.size > 0) index.tracks = index.tracks.map((track) => changed.get(track.id) ?? track);
      await this.library.replace(index);
      this.catalog = new LibraryCatalog(index);
      this.progress = { ...progress, running: false };
      for (const listener of this.scanListeners) listener();
      this.logger.info('library scan finished', {
        tracks: index.tracks.length,
        added: progress.added,
        updated: progress.updated,
        removed: progress.removed,
        errors: progress.errors.length,
        ms: this.clock.now() - started,
      });
    } catch (error) {
      this.progress = {
        ...this.progress,
        running: false,
        errors: [...this.progress.errors, { path: '', reason: 'scan failed' }],
      };
      this.logger.error('library scan failed', {
        error: messageOf(error),
      });
    }
  }

  /** Called after a track's file changed outside a scan (artwork edits). */
  async replaceTrack(track: TrackRecord): Promise<void> {
    if (this.running) this.changedDuringScan.set(track.id, track);
    await this.library.updateTrack(track);
    this.catalog = new LibraryCatalog(this.library.index());
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

  requireAlbum(id: string): void {
    if (!isValidId(id) || !this.library.album(id))
      throw notFound('album_not_found', `Album '${id}' not found`);
  }

  requireArtist(id: string): void {
    if (!isValidId(id) || !this.library.artist(id))
      throw notFound('artist_not_found', `Artist '${id}' not found`);
  }

  // --- read views --------------------------------------------------------------------------------

  listTracks(caller: Principal, query: ListQuery): Page<TrackView> {
    return pageOf(this.catalog.tracksByName(query.q), query, (track) => this.trackView(track, caller));
  }

  listAlbums(caller: Principal, query: ListQuery): Page<AlbumView> {
    return pageOf(this.catalog.albumsByName(query.q), query, (album) => this.albumView(album.id, caller));
  }

  listArtists(caller: Principal, query: ListQuery): Page<ArtistView> {
    return pageOf(this.catalog.artistsByName(query.q), query, (artist) => this.artistView(artist.id, caller));
  }

  getTrack(caller: Principal, id: string): TrackView {
    return this.trackView(this.track(id), caller);
  }

  getAlbum(caller: Principal, id: string): AlbumView {
    this.requireAlbum(id);
    return this.albumView(id, caller);
  }

  getArtist(caller: Principal, id: string): ArtistView {
    this.requireArtist(id);
    return this.artistView(id, caller);
  }

  private rating(kind: RatingKind, id: string, caller: Principal): RatingSummary {
    return this.ratings.summary(kind, id, caller.userId);
  }

  private trackView(track: TrackRecord, caller: Principal): TrackView {
    const view: TrackView = {
      id: track.id,
      name: track.name,
      album: this.catalog.albumRef(track.albumId),
      artists: this.catalog.artistRefs(track.artistIds),
      genres: track.genres,
      durationMs: track.durationMs,
      trackNumber: track.trackNumber,
      discNumber: track.discNumber,
      year: track.year,
      format: track.format,
      artwork: track.artwork,
      ...this.rating('track', track.id, caller),
    };
    // The file's location is only for Admins (docs/API.md, Library).
    if (caller.role === 'Admin') view.path = track.path;
    return view;
  }

  private albumView(id: string, caller: Principal): AlbumView {
    const album = this.library.album(id)!;
    const stats = this.catalog.albumStats(id);
    return {
      id,
      name: album.name,
      artists: this.catalog.artistRefs(album.artistIds),
      year: album.year,
      trackCount: stats.trackCount,
      durationMs: stats.durationMs,
      genres: stats.genres,
      ...this.rating('album', id, caller),
    };
  }

  private artistView(id: string, caller: Principal): ArtistView {
    const artist = this.library.artist(id)!;
    const stats = this.catalog.artistStats(id);
    return {
      id,
      name: artist.name,
      albumCount: stats.albumCount,
      trackCount: stats.trackCount,
      pfpCount: this.artwork.artistImages(id, 'pfp').length,
      bannerCount: this.artwork.artistImages(id, 'banner').length,
      ...this.rating('artist', id, caller),
    };
  }
}

export interface ListQuery {
  q?: string | undefined;
  page: number;
  count: number;
}

export function pageOf<T, V>(all: readonly T[], query: ListQuery, view: (item: T) => V): Page<V> {
  const start = query.page * query.count;
  return {
    items: all.slice(start, start + query.count).map(view),
    page: query.page,
    count: query.count,
    total: all.length,
  };
}
