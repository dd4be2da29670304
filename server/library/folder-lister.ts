/**
 * Lists folders for the walk (folder-walk.ts): each folder's identity and its entries with their
 * kinds. The first folders go through the thread pool (`fs.promises`); once a walk has listed enough
 * of them to be a large library, the rest go to worker threads (sync-workers.ts), many folders a
 * message: a collector's tens of thousands of album folders would otherwise take two trips through
 * the pool each (the folder's `stat` and its listing), which cost far more than the calls.
 */
import { readdir, stat } from 'node:fs/promises';
import { errnoCode } from '../fs/errno.js';
import { SyncWorkers, workerCount } from './sync-workers.js';

export type EntryKind = 'dir' | 'file' | 'link' | 'other';

/** A folder's device and inode (to enter each real folder once) and its entries; or why it failed. */
export type Listing = { dev: number; ino: number; names: string[]; kinds: EntryKind[] } | { error: string };

/**
 * Folders listed through the pool before the workers start, which cost more to start than a small
 * library's walk saves (docs/BENCHMARKS.md): a small library never starts them.
 */
const POOL_FOLDERS = 1024;
/** As many folders in flight as the thread pool's four threads had: a share's latency sets the pace. */
const WORKERS = 4;
/** Folders the walk asks for at once while the pool lists them, as it always did. */
const WALKERS_IN_POOL = 8;
/** Folders asked for at once once workers list them: enough to fill their batches. */
const WALKERS_WITH_WORKERS = 64;
/** Folders a message at most, so that a batch stays a short turn of the main thread. */
const BATCH = 32;

const KINDS: EntryKind[] = ['other', 'dir', 'file', 'link'];

/** The worker (see sync-workers.ts): each folder of a message listed, its entries' kinds as numbers. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { readdirSync, statSync } = require('node:fs');
parentPort.on('message', (dirs) => {
  parentPort.postMessage(dirs.map((dir) => {
    try {
      const info = statSync(dir);
      const entries = readdirSync(dir, { withFileTypes: true });
      const names = new Array(entries.length);
      const kinds = new Uint8Array(entries.length);
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i];
        names[i] = entry.name;
        kinds[i] = entry.isSymbolicLink() ? 3 : entry.isDirectory() ? 1 : entry.isFile() ? 2 : 0;
      }
      return { dev: info.dev, ino: info.ino, names, kinds };
    } catch (err) {
      return { error: (err && err.code) || 'error' };
    }
  }));
});
`;

type WorkerListing = { dev: number; ino: number; names: string[]; kinds: Uint8Array } | { error: string };

export class FolderLister {
  private listed = 0;
  private workers: SyncWorkers<string[], WorkerListing[]> | null = null;
  /** No worker could start, or none is left: the pool lists every folder from then on. */
  private poolOnly = false;
  private readonly queue: Array<{
    dir: string;
    done: (listing: Listing) => void;
    fail: (error: unknown) => void;
  }> = [];
  private sending = 0;
  private sendQueued = false;

  constructor(
    private readonly poolFolders = POOL_FOLDERS,
    private readonly signal?: AbortSignal,
  ) {
    signal?.addEventListener('abort', this.stop, { once: true });
  }

  /**
   * Folders the walk should ask for at once: as few as a pool user of old while the pool lists
   * them (its four threads also serve the server's own reads), many once workers take batches.
   */
  get concurrency(): number {
    return this.workers && !this.poolOnly ? WALKERS_WITH_WORKERS : WALKERS_IN_POOL;
  }

  list(dir: string): Promise<Listing> {
    if (this.signal?.aborted) return Promise.reject(this.signal.reason as Error);
    if (this.listed++ < this.poolFolders || this.poolOnly) return listInPool(dir);
    if (!this.workers) {
      try {
        this.workers = new SyncWorkers(WORKER_SOURCE, workerCount(WORKERS));
      } catch {
        // Out of threads or memory: the pool lists them all, as for a small library.
        this.poolOnly = true;
        return listInPool(dir);
      }
    }
    return new Promise((done, fail) => {
      this.queue.push({ dir, done, fail });
      // The walk asks for many folders in one turn: gathered for a microtask, they fill a batch.
      if (this.sendQueued) return;
      this.sendQueued = true;
      queueMicrotask(() => {
        this.sendQueued = false;
        this.send();
      });
    });
  }

  /** Stops the workers, if any started; the lister may not be used after. */
  async close(): Promise<void> {
    this.signal?.removeEventListener('abort', this.stop);
    await this.workers?.close();
  }

  private readonly stop = (): void => {
    void this.workers?.close();
  };

  /** Sends what is queued, a batch for each worker that is free; the pool takes it all once none is. */
  private send(): void {
    const workers = this.workers;
    if (this.signal?.aborted) {
      for (const b of this.queue.splice(0)) b.fail(this.signal.reason);
      return;
    }
    if (this.poolOnly) {
      for (const b of this.queue.splice(0)) void listInPool(b.dir).then(b.done);
      return;
    }
    while (workers && this.sending < WORKERS && this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      this.sending++;
      workers.run(batch.map((b) => b.dir)).then(
        (listings) => {
          this.sending--;
          batch.forEach((b, i) => b.done(fromWorker(listings[i]!)));
          this.send();
        },
        () => {
          // A worker that failed (out of threads or memory): the pool lists its folders instead,
          // and every folder after them once no worker is left.
          this.sending--;
          if (this.signal?.aborted) {
            for (const b of batch) b.fail(this.signal.reason);
          } else {
            if (!workers.alive) this.poolOnly = true;
            for (const b of batch) void listInPool(b.dir).then(b.done);
          }
          this.send();
        },
      );
    }
  }
}

function fromWorker(listing: WorkerListing): Listing {
  if ('error' in listing) return listing;
  return { ...listing, kinds: Array.from(listing.kinds, (kind) => KINDS[kind]!) };
}

async function listInPool(dir: string): Promise<Listing> {
  try {
    const info = await stat(dir);
    const entries = await readdir(dir, { withFileTypes: true });
    return {
      dev: info.dev,
      ino: info.ino,
      names: entries.map((e) => e.name),
      kinds: entries.map((e) =>
        e.isSymbolicLink() ? 'link' : e.isDirectory() ? 'dir' : e.isFile() ? 'file' : 'other',
      ),
    };
  } catch (err) {
    return { error: errnoCode(err) ?? 'error' };
  }
}
