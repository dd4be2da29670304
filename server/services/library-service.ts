import type { Clock } from '../clock.js';
import { isValidId } from '../domain/ids.js';
import type { NamedRef, Page } from '../contract/common.js';
import type {
  Album,
  Artist,
  MusicFolder,
  RatingSummary,
  ScanProblem,
  ScanStatus,
  Track,
} from '../contract/library.js';
import type { AlbumRecord, ArtistRecord, LibraryIndex, TrackRecord } from '../domain/library.js';
import type { RatingKind } from '../domain/rating.js';
import type { Principal } from '../domain/user.js';
import { notFound, messageOf } from '../errors.js';
import { DEFAULT_WATCH_OPTIONS, FolderWatcher, type WatchOptions } from '../library/folder-watcher.js';
import type { ScanProgress } from '../library/scanner.js';
import type { OpenedTrackFile } from '../library/track-file.js';
import type { Logger } from '../logger.js';
import { LibraryCatalog, type AlbumStats } from './library-catalog.js';
import { MusicFolders, pathInFolders } from './music-folders.js';
import { pageOf, type ListQuery } from './paging.js';
import { TrackFileGuard } from './track-file-guard.js';
import { albumView, artistView, trackView, type LibraryViews } from './library-views.js';
import type { ArtworkStore, LibraryStore, RatingsStore } from '../domain/ports.js';

export type Scanner = (
  dirs: string[],
  previous: LibraryIndex,
  onProgress?: (progress: ScanProgress) => void,
) => Promise<{ index: LibraryIndex; progress: ScanProgress }>;

export interface LibraryOptions {
  /** Watch the music folders and rescan on changes (default true). */
  watch?: boolean;
  /** Debounce and fallback polling of the watcher (tests shorten them). */
  watchOptions?: Partial<WatchOptions>;
}

export const PROBLEM_CAP = 100;

/** The progress of a library that is not scanning and has not scanned. */
export const idleProgress = (): ScanProgress => ({
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
  /** The watcher saw a change while a scan ran: scan again when it ends. */
  private rescanRequested = false;
  private watcher: FolderWatcher | null = null;
  private readonly folders: MusicFolders;
  /** Problems already logged, so a rescan does not repeat a warning per refused file. */
  private loggedProblems = new Set<string>();
  private readonly files: TrackFileGuard;

  constructor(
    private readonly library: LibraryStore,
    private readonly ratings: RatingsStore,
    private readonly artwork: ArtworkStore,
    private readonly dirs: string[],
    private readonly scanner: Scanner,
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly options: LibraryOptions = {},
  ) {
    this.catalog = new LibraryCatalog(library.index());
    this.folders = new MusicFolders(dirs);
    this.files = new TrackFileGuard(dirs, logger, () => this.requestScan());
  }

  /** The track's file, opened and checked; 404 `track_file_not_found` (and a rescan) when it is not. */
  openTrackFile(track: TrackRecord): Promise<OpenedTrackFile> {
    return this.files.open(track);
  }

  /**
   * Starts the library's background work: a warning per music folder that is missing or unreadable,
   * the start-up scan (unless `scan` is false) and the watcher.
   */
  start({ scan = true }: { scan?: boolean } = {}): void {
    for (const problem of this.folderProblems())
      this.logger.warn('music folder not available', { folder: problem.path, reason: problem.reason });
    if (scan) this.startScan();
    if ((this.options.watch ?? true) && this.dirs.length > 0 && !this.stopped) {
      this.watcher = new FolderWatcher(() => this.requestScan(), this.logger, {
        ...DEFAULT_WATCH_OPTIONS,
        ...this.options.watchOptions,
      });
      void this.watcher.start(this.dirs);
    }
  }

  /** Each configured music folder and whether the last look found it readable. */
  musicFolders(): MusicFolder[] {
    return this.folders.list();
  }

  /** The configured music folders that are missing or unreadable, with a reason for people. */
  folderProblems(): ScanProblem[] {
    return this.folders.problems();
  }

  /** A change was seen (by the watcher, or a track file refused): scan now, or once the running scan ends. */
  requestScan(): void {
    if (this.running) this.rescanRequested = true;
    else this.startScan();
  }

  /** Starts a scan unless one is running; either way answers the current progress. */
  startScan(): ScanStatus {
    if (!this.running && !this.stopped) {
      this.progress = { ...idleProgress(), running: true };
      this.running = this.scan().finally(() => {
        this.running = null;
        if (this.rescanRequested) {
          this.rescanRequested = false;
          this.startScan();
        }
      });
    }
    return this.scanStatus();
  }

  /** Called after every scan that changed the library record (e.g. to match unmatched listens again). */
  onScanned(listener: () => void): void {
    this.scanListeners.push(listener);
  }

  scanStatus(): ScanStatus {
    const errors = [...this.progress.errors];
    return { ...this.progress, errors, problems: errors.slice(0, PROBLEM_CAP), problemCount: errors.length };
  }

  /** On shutdown: no new scans, the watcher stops, and a running scan's result is dropped. */
  stopScanning(): void {
    this.stopped = true;
    this.watcher?.stop();
    this.watcher = null;
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
      // A rescan that found nothing new (the watcher's, the periodic one) leaves library.json alone.
      const unchanged =
        progress.added + progress.updated + progress.removed === 0 &&
        changed.size === 0 &&
        index.tracks.length === this.library.index().tracks.length &&
        // A file's identity is recorded without a re-read (records from before it was kept, a share
        // mounted again): the record changed all the same.
        index.tracks.every((track) => sameIdentity(track, this.library.track(track.id)));
      if (!unchanged) {
        await this.library.replace(index);
        this.catalog = new LibraryCatalog(index);
      }
      this.progress = { ...progress, running: false };
      if (!unchanged) for (const listener of this.scanListeners) listener();
      await this.folders.refresh(this.logger);
      this.logProblems(progress.errors);
      if (unchanged && progress.errors.length === 0) return;
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

  /** One warning per refused file or skipped link, the first time a scan finds it. */
  private logProblems(problems: ScanProblem[]): void {
    const seen = new Set<string>();
    // A missing music folder has its own warning (start() and MusicFolders.refresh()).
    const folders = this.folders.paths();
    for (const problem of problems) {
      if (folders.has(problem.path)) continue;
      const key = `${problem.path}\0${problem.reason}`;
      seen.add(key);
      if (!this.loggedProblems.has(key))
        this.logger.warn('not in the library', { path: problem.path, reason: problem.reason });
    }
    this.loggedProblems = seen;
  }

  /** Called after a track's file changed outside a scan (artwork edits). */
  async replaceTrack(track: TrackRecord): Promise<void> {
    if (this.running) this.changedDuringScan.set(track.id, track);
    await this.library.updateTrack(track);
    this.catalog = new LibraryCatalog(this.library.index());
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

  /** Every album, newest first (album-order.ts). */
  newestAlbums(): readonly AlbumRecord[] {
    return this.catalog.orders.newestAlbums();
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

  /** The track's path inside its library folder: never the machine's absolute path. */
  relativePath(track: TrackRecord): string {
    return pathInFolders(this.dirs, track.path);
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

  private get views(): LibraryViews {
    return { catalog: this.catalog, library: this.library, ratings: this.ratings, artwork: this.artwork };
  }
}

const sameIdentity = (track: TrackRecord, stored: TrackRecord | undefined): boolean =>
  stored !== undefined && stored.dev === track.dev && stored.ino === track.ino;
