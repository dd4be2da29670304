import type { Clock } from '../clock.js';
import type { MusicFolder, ScanProblem, ScanStatus } from '../contract/library.js';
import type { LibraryIndex, TrackRecord } from '../domain/library.js';
import { messageOf } from '../errors.js';
import { DEFAULT_WATCH_OPTIONS, FolderWatcher, type WatchOptions } from '../library/folder-watcher.js';
import type { ScanProgress } from '../library/scanner.js';
import type { OpenedTrackFile } from '../library/track-file.js';
import type { Logger } from '../logger.js';
import { LibraryCatalog } from './library-catalog.js';
import { LibraryReads } from './library-reads.js';
import { MusicFolders, pathInFolders } from './music-folders.js';
import { inBackground, WarmUps } from './steps.js';
import { TrackFileGuard } from './track-file-guard.js';
import type { ArtworkStore, LibraryStore, RatingsStore } from '../domain/ports.js';

export type Scanner = (
  dirs: string[],
  previous: LibraryIndex,
  onProgress?: (progress: ScanProgress) => void,
  /** Aborted on shutdown: the scan stops its work (and its worker threads) and rejects. */
  signal?: AbortSignal,
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
 * The music library: scanning (in the background, one scan at a time), watching the folders and
 * opening track files; the reads of tracks, albums and artists are LibraryReads'.
 */
export class LibraryService extends LibraryReads {
  private progress: ScanProgress = idleProgress();
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly stopping = new AbortController();
  /** Tracks re-read while a scan runs (artwork edits): the scan's result must not undo them. */
  private changedDuringScan = new Map<string, TrackRecord>();
  private readonly scanListeners: Array<() => void> = [];
  private readonly openListeners: Array<(turn: () => Promise<void>) => void | Promise<void>> = [];
  /** The watcher saw a change while a scan ran: scan again when it ends. */
  private rescanRequested = false;
  private watcher: FolderWatcher | null = null;
  private readonly folders: MusicFolders;
  /** Problems already logged, so a rescan does not repeat a warning per refused file. */
  private loggedProblems = new Set<string>();
  private readonly files: TrackFileGuard;
  private readonly orderWarmUps = new WarmUps();

  constructor(
    library: LibraryStore,
    ratings: RatingsStore,
    artwork: ArtworkStore,
    private readonly dirs: string[],
    private readonly scanner: Scanner,
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly options: LibraryOptions = {},
  ) {
    super(library, ratings, artwork);
    this.folders = new MusicFolders(dirs);
    this.files = new TrackFileGuard(dirs, logger, () => this.requestScan());
  }

  /** The track's file, opened and checked; 404 `track_file_not_found` (and a rescan) when it is not. */
  openTrackFile(track: TrackRecord): Promise<OpenedTrackFile> {
    return this.files.open(track);
  }

  /** The track's path inside its library folder: never the machine's absolute path. */
  relativePath(track: TrackRecord): string {
    return pathInFolders(this.dirs, track.path);
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

  /**
   * Called once the store has read the library, when it reads it after the server listens, with the
   * turn to await between its steps; the library counts as opened once it resolves.
   */
  onOpened(listener: (turn: () => Promise<void>) => void | Promise<void>): void {
    this.openListeners.push(listener);
  }

  /**
   * The store has read the library (after listening): the catalog, and what follows it, made anew;
   * the catalog and then each listener in steps, `turn` between them.
   */
  async opened(turn: () => Promise<void>): Promise<void> {
    const steps = LibraryCatalog.inSteps(this.library.index());
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        this.catalog = step.value;
        break;
      }
      await turn();
    }
    for (const listener of this.openListeners) await listener(turn);
  }

  /**
   * Makes the current catalog's album orders that a player's first page would otherwise sort
   * (catalog-orders.ts), in steps between requests; left when the library changes meanwhile.
   */
  warmOrders(): Promise<void> {
    return this.orderWarmUps.run(async () => {
      const catalog = this.catalog;
      await inBackground(catalog.orders.ahead(), () => this.catalog === catalog);
    });
  }

  /**
   * Makes the current catalog's newest tracks' order (catalog-orders.ts) in steps between requests,
   * unless it is made: for a reader about to need it at once (the mixes).
   */
  async readyTracksByNewest(): Promise<void> {
    const catalog = this.catalog;
    if (catalog.orders.hasTracksByNewest()) return;
    await inBackground(catalog.orders.tracksByNewestAhead(), () => this.catalog === catalog);
  }

  scanStatus(): ScanStatus {
    const errors = [...this.progress.errors];
    return { ...this.progress, errors, problems: errors.slice(0, PROBLEM_CAP), problemCount: errors.length };
  }

  /**
   * On shutdown: no new scans, the watcher stops, and a running scan stops and its result is
   * dropped. Resolves once it has ended, its worker threads with it.
   */
  async stopScanning(): Promise<void> {
    this.stopped = true;
    this.watcher?.stop();
    this.watcher = null;
    this.stopping.abort();
    await this.waitForIdle();
  }

  /** Resolves once no scan is running (an update waits for this before it replaces the app). */
  async waitForIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async scan(): Promise<void> {
    const started = this.clock.now();
    try {
      const { index, progress } = await this.scanner(
        this.dirs,
        this.library.index(),
        (update) => {
          this.progress = { ...update, running: true };
        },
        this.stopping.signal,
      );
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
      if (this.stopped) return;
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
}

const sameIdentity = (track: TrackRecord, stored: TrackRecord | undefined): boolean =>
  stored !== undefined && stored.dev === track.dev && stored.ino === track.ino;
