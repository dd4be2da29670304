/**
 * What a rescan needs to know of every file the library holds (size, time, identity), for many
 * files at once. Large lists are stat'ed in worker threads (sync-workers.ts), a batch of paths a
 * message; short ones through the thread pool, as a worker costs more to start. Several workers,
 * each on its own part of the list, keep several places of the disk read at once when the file
 * system's caches are cold; pool threads working through neighbouring paths mostly waited on the
 * same blocks.
 */
import { stat } from 'node:fs/promises';
import { SyncWorkers } from './sync-workers.js';

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
 * for a path that is missing, unreadable or not a regular file. Resolves once every path was given.
 */
export async function statFiles(
  paths: readonly string[],
  sink: FactsSink,
  { workersFrom = WORKERS_FROM }: StatOptions = {},
): Promise<void> {
  if (paths.length === 0) return;
  if (paths.length < workersFrom) return statInPool(paths, sink);
  const given = new Uint8Array(paths.length);
  try {
    await statInWorkers(paths, (index, facts) => {
      given[index] = 1;
      sink(index, facts);
    });
  } catch {
    // No worker could start (a process out of threads or memory): the pool does what is left.
    const left = paths.flatMap((path, i) => (given[i] ? [] : [{ path, i }]));
    await statInPool(
      left.map((l) => l.path),
      (k, facts) => sink(left[k]!.i, facts),
    );
  }
}

async function statInPool(paths: readonly string[], sink: FactsSink): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const i = next++;
      const info = await stat(paths[i]!).catch(() => null);
      sink(
        i,
        info?.isFile() ? { size: info.size, mtimeMs: info.mtimeMs, dev: info.dev, ino: info.ino } : null,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(POOL_CONCURRENCY, paths.length) }, worker));
}

async function statInWorkers(paths: readonly string[], sink: FactsSink): Promise<void> {
  const workers = new SyncWorkers<string[], Float64Array>(
    WORKER_SOURCE,
    Math.min(WORKERS, Math.ceil(paths.length / BATCH)),
  );
  const batches = Array.from({ length: Math.ceil(paths.length / BATCH) }, (_, b) => b * BATCH);
  try {
    await Promise.all(
      batches.map(async (start) => {
        const end = Math.min(paths.length, start + BATCH);
        const out = await workers.run(paths.slice(start, end));
        for (let k = 0; start + k < end; k++) {
          const at = k * FIELDS;
          const size = out[at]!;
          sink(
            start + k,
            Number.isNaN(size) ? null : { size, mtimeMs: out[at + 1]!, dev: out[at + 2]!, ino: out[at + 3]! },
          );
        }
      }),
    );
  } finally {
    await workers.close();
  }
}
