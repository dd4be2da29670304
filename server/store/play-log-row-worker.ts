/**
 * The worker thread's side of reading a play log's rows (play-log-row-thread.ts has the main
 * thread's side and the reasons). It reads the lines as the main thread would (readLines, the
 * snapshot lines and the row reader of play-log-lines.ts), fills the shared batches in turn, and
 * posts what the main thread needs besides the rows: the names and snapshots they refer to that it
 * has not been sent yet, the warnings, and where the whole lines end.
 */
import { open } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { errnoCode } from '../fs/errno.js';
import type { LogFields, Logger } from '../logger.js';
import { readLines } from './play-log-reader.js';
import { rowLineReader, upTo } from './play-log-lines.js';
import { PlayRowReader, RowBatch } from './play-log-rows.js';
import { snapshotText } from './play-log-codec.js';
import type { PlaySnapshot } from '../domain/play.js';
import type { FromRowWorker, RowWorkerData } from './play-log-row-thread.js';

const port = parentPort!;
const job = workerData as RowWorkerData;
const post = (message: FromRowWorker) => port.postMessage(message);

/** Lines of a level, posted for the main thread's logger. */
const logAt =
  (level: 'info' | 'warn' | 'error') =>
  (message: string, fields: LogFields = {}) =>
    post({ kind: 'log', level, message, fields });
const logger: Logger = { info: logAt('info'), warn: logAt('warn'), error: logAt('error') };

const slots = job.slots.map((memory) => new RowBatch(memory));
/** Batches the main thread has read, counted from the first (the only value the threads share). */
const released = new Int32Array(job.released);
let handed = 0;

/**
 * The snapshots the lines define, as LogSnapshots.define has them, kept as texts only: the rows
 * need only know that theirs reads, and the main thread parses each once for itself.
 */
class DefinedSnapshots {
  private readonly texts: string[] = [];
  get count(): number {
    return this.texts.length;
  }
  text(n: number): string {
    return this.texts[n]!;
  }
  at(n: number): PlaySnapshot | undefined {
    return n < this.texts.length ? DEFINED : undefined;
  }
  define(n: number, snapshot: PlaySnapshot): boolean {
    const text = snapshotText(snapshot);
    if (n < this.texts.length) return this.texts[n] === text;
    if (n > this.texts.length) return false;
    this.texts.push(text);
    return true;
  }
}
/** What `at` gives for a snapshot that is defined: the row reader only asks whether there is one. */
const DEFINED: PlaySnapshot = Object.freeze({
  trackId: '',
  albumId: null,
  artistIds: [],
  genres: [],
  durationMs: 0,
  trackName: null,
  albumName: null,
  artistNames: [],
});
const snapshots = new DefinedSnapshots();
const sent = { users: 0, devices: 0, snapshots: 0 };

/** Blocks until the main thread has read the batch that last used the next slot. */
function nextBatch(): RowBatch {
  for (;;) {
    const read = Atomics.load(released, 0);
    if (handed - read < slots.length) return slots[handed % slots.length]!;
    Atomics.wait(released, 0, read);
  }
}

/** The snapshots defined since the last message, as their canonical texts. */
function newSnapshots(): string[] {
  const texts: string[] = [];
  for (; sent.snapshots < snapshots.count; sent.snapshots += 1) texts.push(snapshots.text(sent.snapshots));
  return texts;
}

const rows = new PlayRowReader(
  snapshots,
  (batch) => {
    post({
      kind: 'rows',
      slot: handed % slots.length,
      count: batch.count,
      toCome: batch.toCome,
      users: rows.users.values.slice(sent.users),
      devices: rows.devices.values.slice(sent.devices),
      snapshots: newSnapshots(),
    });
    sent.users = rows.users.values.length;
    sent.devices = rows.devices.values.length;
    handed += 1;
  },
  job.fileBytes,
  nextBatch,
);

async function main(): Promise<void> {
  const handle = await open(job.path, 'r');
  let result;
  try {
    const read = upTo(job.endAt, rowLineReader(snapshots, rows));
    result = await readLines(handle, job.path, logger, job.startAt, read);
  } finally {
    await handle.close();
  }
  const count = rows.flush();
  post({ kind: 'end', rows: count, snapshots: newSnapshots(), ...result });
}

main().catch((error: unknown) => {
  const code = errnoCode(error);
  post({
    kind: 'failed',
    message: error instanceof Error ? error.message : String(error),
    ...(code ? { code } : {}),
  });
});
