/**
 * Tells when something changed below the music folders, so new, changed and deleted files reach the
 * library without a manual scan.
 *
 * Node's own recursive `fs.watch` is used (on Linux it watches every sub-folder through inotify since
 * Node 20, and new sub-folders are picked up as they appear), so no dependency is needed. Events are
 * debounced: a copy of many files, or of one big file written in many chunks, makes one rescan after
 * it goes quiet. A folder that cannot be watched (missing at start, a network share without events,
 * too many inotify watches) falls back to a periodic rescan, said in the log.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { messageOf } from '../errors.js';
import type { Logger } from '../logger.js';

export interface WatchOptions {
  /** Quiet time after the last event before `onChange` runs. */
  debounceMs: number;
  /** A burst of events never delays `onChange` longer than this. */
  maxWaitMs: number;
  /** How often to rescan when a folder cannot be watched. */
  pollIntervalMs: number;
}

export const DEFAULT_WATCH_OPTIONS: WatchOptions = {
  debounceMs: 1_500,
  maxWaitMs: 5_000,
  pollIntervalMs: 5 * 60_000,
};

export class FolderWatcher {
  private watchers: FSWatcher[] = [];
  private poll: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private firstEventAt: number | null = null;
  private stopped = false;

  constructor(
    private readonly onChange: () => void,
    private readonly logger: Logger,
    private readonly options: WatchOptions = DEFAULT_WATCH_OPTIONS,
  ) {}

  /** Watches every folder in `dirs`; folders that cannot be watched are polled instead. */
  start(dirs: string[]): void {
    for (const dir of dirs) this.watchFolder(path.resolve(dir));
  }

  /** Whether some folder is polled instead of watched. */
  get polling(): boolean {
    return this.poll !== null;
  }

  stop(): void {
    this.stopped = true;
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
    if (this.poll) clearInterval(this.poll);
    if (this.debounce) clearTimeout(this.debounce);
    this.poll = null;
    this.debounce = null;
  }

  private watchFolder(dir: string): void {
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { recursive: true, persistent: false }, (_event, name) => {
        // Hidden names are temp files (artwork edits write `.name.tmp` next to the file).
        if (name && path.basename(name.toString()).startsWith('.')) return;
        this.changed();
      });
    } catch (err) {
      this.fallBack(dir, messageOf(err));
      return;
    }
    watcher.on('error', (err) => {
      watcher.close();
      this.watchers = this.watchers.filter((w) => w !== watcher);
      this.fallBack(dir, messageOf(err));
    });
    this.watchers.push(watcher);
  }

  private fallBack(dir: string, reason: string): void {
    if (this.stopped) return;
    const minutes = Math.round((this.options.pollIntervalMs / 60_000) * 100) / 100;
    this.logger.warn('music folder cannot be watched; rescanning periodically instead', {
      folder: dir,
      reason,
      everyMinutes: minutes,
    });
    // One timer serves every polled folder: a rescan covers all of them.
    this.poll ??= setInterval(() => this.onChange(), this.options.pollIntervalMs);
    this.poll.unref();
  }

  private changed(): void {
    if (this.stopped) return;
    const now = Date.now();
    this.firstEventAt ??= now;
    if (this.debounce) clearTimeout(this.debounce);
    const wait = Math.min(this.options.debounceMs, this.firstEventAt + this.options.maxWaitMs - now);
    this.debounce = setTimeout(
      () => {
        this.debounce = null;
        this.firstEventAt = null;
        this.onChange();
      },
      Math.max(0, wait),
    );
    this.debounce.unref();
  }
}
