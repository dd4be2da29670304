/**
 * Tells when something changed below the music folders, so new, changed and deleted files reach the
 * library without a manual scan.
 *
 * One non-recursive `fs.watch` (inotify on Linux) per folder: a folder's watch reports files created,
 * written, renamed or deleted in it, and a new sub-folder gets its own watch as it appears. Node 20's
 * `recursive: true` on Linux is not used: it walks the tree synchronously at start (the
 * event loop stops for the whole library) and holds a watch and a stat per *file* (100,000 tracks =
 * 100,000 inotify watches); per folder it is one watch per album. No dependency is needed for that.
 *
 * Events are debounced: a copy of many files, or of one big file written in many chunks, makes one
 * rescan after it goes quiet. A music folder that cannot be watched (missing at start, a network share
 * without events, the inotify limit reached) falls back to a periodic rescan, said in the log.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { messageOf } from '../errors.js';
import { errnoCode } from '../fs/errno.js';
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

/**
 * A watch carries its folder and the music folder it lies in, so that one listener of each kind
 * serves every watch (an emitter calls its listeners as its own methods): a collector's tens of
 * thousands of folders then cost no closures of their own.
 */
const FOLDER = Symbol('folder');
const ROOT = Symbol('root');
type FolderWatch = FSWatcher & { [FOLDER]: string; [ROOT]: string };

export class FolderWatcher {
  /** Watched folders by path. */
  private watchers = new Map<string, FolderWatch>();
  private poll: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private firstEventAt: number | null = null;
  private stopped = false;

  constructor(
    private readonly onChange: () => void,
    private readonly logger: Logger,
    private readonly options: WatchOptions = DEFAULT_WATCH_OPTIONS,
  ) {}

  private readonly onEvent = calledOn((watch: FolderWatch, event: string, name: string | Buffer | null) =>
    this.event(watch, event, name),
  );
  private readonly onError = calledOn((watch: FolderWatch, err: Error) => {
    this.unwatch(watch[FOLDER]);
    if (watch[FOLDER] === watch[ROOT]) this.fallBack(watch[ROOT], messageOf(err));
  });

  /** Watches every folder in `dirs` and below; resolves once all are watched (or polled). */
  async start(dirs: string[]): Promise<void> {
    for (const dir of dirs) {
      const root = path.resolve(dir);
      try {
        await this.watchTree(root, root);
      } catch (err) {
        this.fallBack(root, messageOf(err));
      }
    }
  }

  /** Whether some music folder is polled instead of watched. */
  get polling(): boolean {
    return this.poll !== null;
  }

  /** How many folders are watched. */
  get watchedFolders(): number {
    return this.watchers.size;
  }

  stop(): void {
    this.stopped = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    if (this.poll) clearInterval(this.poll);
    if (this.debounce) clearTimeout(this.debounce);
    this.poll = null;
    this.debounce = null;
  }

  /**
   * Watches `top` and the folders below it (hidden ones skipped, symlinks not followed); answers how
   * many folders it started watching. Throws when
   * `top` is the music folder itself and cannot be read or watched; a sub-folder that vanished while
   * it was walked is simply skipped.
   */
  private async watchTree(top: string, root: string): Promise<number> {
    let added = 0;
    const pending = [top];
    while (pending.length > 0 && !this.stopped) {
      const dir = pending.pop()!;
      if (this.watchers.has(dir)) continue;
      let entries;
      try {
        // Watch first, then list: a sub-folder made in between is then either listed or reported.
        this.watchFolder(dir, root);
        entries = await readdir(dir, { withFileTypes: true });
        added++;
      } catch (err) {
        this.unwatch(dir);
        if (dir === root) throw err;
        if (isWatchLimit(err)) {
          this.fallBack(root, messageOf(err));
          return added;
        }
        continue; // not a folder, or gone already
      }
      for (const entry of entries)
        if (entry.isDirectory() && !entry.name.startsWith('.')) pending.push(inFolder(dir, entry.name));
    }
    return added;
  }

  private watchFolder(dir: string, root: string): void {
    if (this.stopped) return;
    const watcher = watch(dir, { persistent: false }, this.onEvent) as FolderWatch;
    watcher[FOLDER] = dir;
    watcher[ROOT] = root;
    watcher.on('error', this.onError);
    this.watchers.set(dir, watcher);
  }

  private event(watch: FolderWatch, event: string, name: string | Buffer | null): void {
    const { [FOLDER]: dir, [ROOT]: root } = watch;
    const base = name ? path.basename(name.toString()) : '';
    // Hidden names are temp files (artwork edits write `.name.tmp` next to the file).
    if (base.startsWith('.')) return;
    this.changed();
    if (event !== 'rename') return;
    // A name appeared or went: a new sub-folder needs a watch; a deleted folder lets go of its own.
    // Files written into a new folder before its watch was in place are found by the rescan
    // that its watch starts.
    if (base)
      this.watchTree(inFolder(dir, base), root).then(
        (added) => added > 0 && this.changed(),
        () => undefined,
      );
    void stat(dir).catch(() => this.unwatch(dir));
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
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

/**
 * `name` in the folder `dir` (a resolved path, `name` an entry of it): what path.join gives, made
 * without its normalizing, whose result is a string of many pieces (several hundred bytes a folder,
 * kept as long as the folder is watched).
 */
function inFolder(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/** A listener an emitter calls as its own method, handing `handle` that emitter first. */
function calledOn<W, A extends unknown[]>(
  handle: (watch: W, ...args: A) => void,
): (this: W, ...args: A) => void {
  return function (this: W, ...args: A) {
    handle(this, ...args);
  };
}

/** inotify's per-user watch limit (ENOSPC) or the open-file limit. */
function isWatchLimit(err: unknown): boolean {
  const code = errnoCode(err);
  return code === 'ENOSPC' || code === 'EMFILE';
}
