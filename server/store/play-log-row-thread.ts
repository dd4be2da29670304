/**
 * Reads a play log's rows in a worker thread, for a start that reads a big log whole (no saved
 * index: the first start after an upgrade, or after plays.index was deleted). Finding the lines and
 * decoding them is about half of such a read, indexing the rows the other half: on a machine with a
 * core to spare, the worker decodes the next batches while the main thread indexes this one.
 *
 * The rows cross in a few batches of shared memory used in turn, so none is copied, and the worker
 * waits while the main thread has every one of them to read: a worker ahead holds no more than
 * those, whatever the log's size. Everything else a batch needs (the user ids, device names and
 * snapshots its rows refer to that were not sent before) comes with it as a message. The worker
 * reads the lines exactly as `PlayLog.open` does on the main thread (play-log-row-worker.ts), which
 * is what a small log, or a worker that cannot start, still uses.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LoggedNames, LoggedRows } from '../domain/play.js';
import { errnoCode } from '../fs/errno.js';
import type { LogFields, Logger } from '../logger.js';
import { decodeSnapshotText } from './play-log-codec.js';
import type { ReadResult } from './play-log-reader.js';
import { RowBatch } from './play-log-rows.js';
import type { LogSnapshots } from './play-log-snapshots.js';

/**
 * Batches in flight: the main thread reads one while the worker fills the next; more only smooth
 * out the turns the main thread spends on other work. Each takes RowBatch.BYTES.
 */
const SLOTS = 4;

/** Below this much to read, a worker's start costs more than it saves. */
export const ROW_THREAD_BYTES = 32 * 1024 * 1024;

/** Which lines of which log a read takes. */
export interface LogSpan {
  path: string;
  startAt: number;
  /** Lines starting at or after this are left unread (null: read to the end). */
  endAt: number | null;
  /** Where the log ends, for the rows' estimate of those to come. */
  fileBytes: number;
}

/** What the worker is given. */
export interface RowWorkerData extends LogSpan {
  slots: SharedArrayBuffer[];
  /** Int32Array(1): how many batches the main thread has read. */
  released: SharedArrayBuffer;
}

/** What the worker posts, in order. */
export type FromRowWorker =
  | {
      kind: 'rows';
      slot: number;
      count: number;
      toCome: number;
      /** Names and snapshot texts first referred to in this batch or since the last one. */
      users: string[];
      devices: string[];
      snapshots: string[];
    }
  | { kind: 'log'; level: 'info' | 'warn' | 'error'; message: string; fields: LogFields }
  | ({ kind: 'end'; rows: number; snapshots: string[] } & ReadResult)
  /** `code` is a system error's (ENOENT, EIO …): the caller tells them apart by it. */
  | { kind: 'failed'; message: string; code?: string };

export interface RowThreadRead extends LogSpan {
  logger: Logger;
  /** Defined with every snapshot the lines define, as a read on the main thread would. */
  snapshots: LogSnapshots;
  onRows: (rows: LoggedRows, names: LoggedNames) => void;
}

/**
 * Reads the rows in a worker; `undefined` when no worker could be started, or one failed before it
 * delivered anything (the caller reads them itself). Rejects when the read fails after it delivered
 * rows, or `onRows` throws.
 */
export async function readRowsInThread(
  read: RowThreadRead,
): Promise<(ReadResult & { rows: number }) | undefined> {
  const slots = Array.from({ length: SLOTS }, () => new SharedArrayBuffer(RowBatch.BYTES));
  const released = new Int32Array(new SharedArrayBuffer(4));
  const { path, startAt, endAt, fileBytes } = read;
  const data: RowWorkerData = {
    path,
    startAt,
    endAt,
    fileBytes,
    slots,
    released: released.buffer,
  };
  const { snapshots, logger } = read;
  const notStarted = (error: unknown) => {
    const code = errnoCode(error);
    logger.warn('play log: no worker thread could read it; it is read on the main thread', {
      error: String(error),
      ...(code ? { code } : {}),
    });
    return undefined;
  };
  let worker: Worker;
  try {
    worker = new Worker(await workerEntry(), { workerData: data });
  } catch (error) {
    return notStarted(error);
  }
  const batches = slots.map((memory) => new RowBatch(memory));
  const users: string[] = [];
  const devices: string[] = [];
  const names: LoggedNames = { users, devices, snapshot: (n) => snapshots.at(n) };
  const define = (texts: string[]) => {
    for (const text of texts) {
      const snapshot = decodeSnapshotText(text);
      if (!snapshot || !snapshots.define(snapshots.count, snapshot))
        throw new Error('the play log reader sent a snapshot that does not read');
    }
  };

  return new Promise((resolve, reject) => {
    // Nothing reaches the caller before the first batch (or the end): a worker that fails before
    // it leaves the read to the main thread, as one that could not start, its warnings unsaid.
    let delivered = false;
    const held: Array<Extract<FromRowWorker, { kind: 'log' }>> = [];
    const deliver = () => {
      if (delivered) return;
      delivered = true;
      for (const line of held.splice(0)) logger[line.level](line.message, line.fields);
    };
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      outcome();
    };
    const failed = (error: Error) => finish(() => (delivered ? reject(error) : resolve(notStarted(error))));
    worker.on('message', (message: FromRowWorker) => {
      if (settled) return;
      try {
        switch (message.kind) {
          case 'log':
            if (delivered) logger[message.level](message.message, message.fields);
            else held.push(message);
            return;
          case 'rows': {
            deliver();
            for (const user of message.users) users.push(user);
            for (const device of message.devices) devices.push(device);
            define(message.snapshots);
            const batch = batches[message.slot]!;
            batch.count = message.count;
            batch.toCome = message.toCome;
            read.onRows(batch, names);
            Atomics.add(released, 0, 1);
            Atomics.notify(released, 0);
            return;
          }
          case 'end': {
            deliver();
            define(message.snapshots);
            const { goodBytes, fileBytes, rows } = message;
            finish(() => resolve({ goodBytes, fileBytes, rows }));
            return;
          }
          case 'failed':
            failed(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
            return;
        }
      } catch (error) {
        finish(() => reject(error instanceof Error ? error : new Error(String(error))));
      }
    });
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`the play log reader stopped (${code})`)));
  });
}

/**
 * The worker's module, built beside this one. Run from the TypeScript sources (tests, `npm run
 * melon`), a worker thread cannot load TypeScript: the module is bundled for it, once, by esbuild
 * (a development tool, never loaded by the built server).
 */
async function workerEntry(): Promise<URL> {
  const ext = extname(fileURLToPath(import.meta.url));
  const url = new URL(`./play-log-row-worker${ext}`, import.meta.url);
  if (ext !== '.ts') return url;
  bundled ??= import('esbuild').then(async ({ build }) => {
    const out = await build({
      entryPoints: [fileURLToPath(url)],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    });
    return new URL(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString('base64')}`);
  });
  return bundled;
}
let bundled: Promise<URL> | undefined;
