/**
 * What a rescan needs to know of every file the library holds (size, time, identity), for many
 * files at once. Large lists are stat'ed in worker threads (sync-workers.ts), a batch of paths a
 * message; short ones through the thread pool, as a worker costs more to start. Several workers,
 * each on its own part of the list, keep several places of the disk read at once when the file
 * system's caches are cold; pool threads working through neighbouring paths mostly waited on the
 * same blocks.
 */
import { stat } from 'node:fs/promises';
import { SyncWorkers, workerCount } from './sync-workers.js';

/** A regular file's size, modification time and identity, as `fs.stat` gives them. */
export interface FileFacts {
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

/** Called for each path, in batches (each in a turn of its own), in no particular order. */
export type FactsSink = (index: number, facts: FileFacts | null) => void;

export interface StatOptions {
  /** Lists shorter than this are stat'ed through the thread pool: a worker costs more to start. */
  workersFrom?: number;
  /** Stops the stats: `statFiles` rejects and its workers are stopped. */
  signal?: AbortSignal;
}

/** Below this many files, starting the workers costs more CPU than they save (docs/BENCHMARKS.md). */
const WORKERS_FROM = 8192;
const WORKERS = 4;
/** Paths a message: enough to make a message's cost small, few enough that a batch is a short turn. */
const BATCH = 512;
/** Stats in flight at once through the thread pool, for short lists. */
const POOL_CONCURRENCY = 32;
/** Numbers a path in a worker's answer: size, mtimeMs, dev, ino (NaN when not a regular file). */
const FIELDS = 4;

/** The worker (see sync-workers.ts): the facts of each path of a message, in a Float64Array. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { statSync } = require('node:fs');
parentPort.on('message', (paths) => {
  const out = new Float64Array(paths.length * ${FIELDS}).fill(NaN);
  for (let i = 0; i < paths.length; i++) {
    let info;
    try {
      info = statSync(paths[i], { throwIfNoEntry: false });
    } catch {
      continue;
    }
    if (!info || !info.isFile()) continue;
    const at = i * ${FIELDS};
    out[at] = info.size;
    out[at + 1] = info.mtimeMs;
    out[at + 2] = info.dev;
    out[at + 3] = info.ino;
  }
  parentPort.postMessage(out, [out.buffer]);
});
`;

/**
 * Stats every path (following links, as `fs.stat` does) and hands each one's facts to `sink`, null
 * for a path that is missing, unreadable or not a regular file. Resolves once every path was given;
 * rejects with what `sink` threw, or with the signal's reason once it is aborted (its workers
 * stopped).
 */
export async function statFiles(
  paths: readonly string[],
  sink: FactsSink,
  { workersFrom = WORKERS_FROM, signal }: StatOptions = {},
): Promise<void> {
  signal?.throwIfAborted();
  if (paths.length === 0) return;
  if (paths.length < workersFrom) return statInPool(paths, sink, POOL_CONCURRENCY, signal);
  let workers;
  try {
    workers = new SyncWorkers<string[], Float64Array>(
      WORKER_SOURCE,
      workerCount(Math.min(WORKERS, Math.ceil(paths.length / BATCH))),
    );
  } catch {
    // No worker could start (a process out of threads or memory): the pool does it all.
    return statInPool(paths, sink, POOL_CONCURRENCY, signal);
  }
  const stop = (): void => void workers.close();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    await statInWorkers(workers, paths, sink, signal);
    signal?.throwIfAborted();
  } finally {
    signal?.removeEventListener('abort', stop);
    await workers.close();
  }
}

async function statInPool(
  paths: readonly string[],
  sink: FactsSink,
  concurrency: number,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      signal?.throwIfAborted();
      const i = next++;
      const info = await stat(paths[i]!).catch(() => null);
      sink(
        i,
        info?.isFile() ? { size: info.size, mtimeMs: info.mtimeMs, dev: info.dev, ino: info.ino } : null,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, paths.length) }, worker));
}

/**
 * Twice as many batches in flight as workers, so that a worker's next batch waits for it while the
 * main thread takes in its last answer. A batch whose worker failed, and every batch once none is
 * left, is stat'ed through the pool, with the pool's concurrency shared among the batches.
 */
async function statInWorkers(
  workers: SyncWorkers<string[], Float64Array>,
  paths: readonly string[],
  sink: FactsSink,
  signal?: AbortSignal,
): Promise<void> {
  const inFlight = Math.max(1, workers.count * 2);
  let next = 0;
  const loop = async (): Promise<void> => {
    while (next < paths.length && !workers.stopped) {
      const start = next;
      const end = Math.min(paths.length, start + BATCH);
      next = end;
      let out: Float64Array;
      try {
        out = await workers.run(paths.slice(start, end));
      } catch (error) {
        signal?.throwIfAborted();
        // Stopped because another batch failed: nothing more is wanted.
        if (workers.stopped) throw error;
        const concurrency = Math.max(1, Math.floor(POOL_CONCURRENCY / inFlight));
        await statInPool(paths.slice(start, end), (k, facts) => sink(start + k, facts), concurrency, signal);
        continue;
      }
      for (let k = 0; start + k < end; k++) {
        const at = k * FIELDS;
        const size = out[at]!;
        sink(
          start + k,
          Number.isNaN(size) ? null : { size, mtimeMs: out[at + 1]!, dev: out[at + 2]!, ino: out[at + 3]! },
        );
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, loop));
}
