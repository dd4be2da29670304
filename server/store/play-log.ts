import type { LoggedNames, LoggedRows, PlayLogEntry } from '../domain/play.js';
import { errnoCode } from '../fs/errno.js';
import { readSync } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../logger.js';
import { fsyncDir } from '../fs/atomic-file.js';
import { decodePlayLine, HEADER, playLine, SCHEMA_VERSION } from './play-log-codec.js';
import { readLog } from './play-log-lines.js';
import { checkVersion, readHeader } from './play-log-reader.js';
import { migrateV1Log } from './play-log-migration.js';
import { LogSnapshots } from './play-log-snapshots.js';
import type { PlayStore } from '../domain/ports.js';

export interface PlayLogOptions {
  logger: Logger;
  /**
   * Called once for every entry in the file (after `from`, when given), in file order, before
   * `open` resolves; then for every appended entry the moment it is durable, before its append
   * resolves. So whoever indexes the log always holds exactly its durable entries. `snapshot` is
   * the number of the entry's snapshot in this log: equal numbers, equal snapshots. `line` is where
   * the entry's line starts in the file (`idAt` reads its id back from there).
   */
  onEntry: (entry: PlayLogEntry, snapshot: number, line: number) => void;
  /**
   * When given, the entries in the file come here instead, as batches of rows in file order (no
   * object per entry: a start reads millions); `onEntry` hears only appended ones. `names` is the
   * same object for every batch; `rows` is valid only during the call.
   */
  onRows?: ((rows: LoggedRows, names: LoggedNames) => void) | undefined;
  /**
   * Read only the entries after this point; check it first with `PlayLog.reaches`. The snapshots
   * the lines before it define must be given too (`PlayLog.snapshots` when it was taken).
   */
  from?: { position: LogPosition; snapshots: LogSnapshots } | undefined;
  /** Whether rows read from the first line go through a worker thread (`LogRead.rowThread`). */
  rowThread?: boolean | undefined;
}

/**
 * A point in the log: the bytes before it, how many entries they hold, and their last bytes (so a
 * log that was replaced or cut shorter since is recognised as not holding this point any more).
 */
export interface LogPosition {
  bytes: number;
  entries: number;
  /** The last bytes before the point, base64. */
  tail: string;
}

/** A header line is shorter than this (readHeader reads this much). */
const HEADER_PROBE_BYTES = 256;

/** A log line is shorter than this but for very long device names or ids (idAt reads more then). */
const ID_READ_BYTES = 512;

/** How many bytes before a position identify it: the last few lines. */
const POSITION_TAIL_BYTES = 1024;

interface Pending {
  entries: PlayLogEntry[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The play log: an append-only file of JSON lines (`plays.jsonl`, format in play-log-codec.ts). Appending one line and fsyncing it
 * costs the same at any size, unlike rewriting a whole JSON document on every play. Appends that
 * arrive while a write is on its way are grouped into the next write and fsync (group commit), so
 * a burst of plays costs a few fsyncs, and each append resolves only once its line is durable.
 */
export class PlayLog implements PlayStore {
  private queue: Pending[] = [];
  private writing: Promise<void> | null = null;
  private closed = false;
  private entries: number;
  private batchCount = 0;
  /** Entries read from the file at open (all of them, or those after `from`). */
  readonly replayed: number;
  private snapshotsWritten: number;
  /** Set when `onEntry` threw for an appended entry: whoever hears the log's entries missed one. */
  entriesMissed = false;

  private constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
    private readonly logger: Logger,
    /** Bytes known to be whole lines; a failed write is cut back to this. */
    private bytes: number,
    /** The last bytes of those, to mark a position (see LogPosition). */
    private tail: Buffer,
    private readonly onEntry: (entry: PlayLogEntry, snapshot: number, line: number) => void,
    /** The snapshots the file defines; a log of a new one defines it first. */
    readonly snapshots: LogSnapshots,
    loaded: number,
    replayed: number,
  ) {
    this.entries = loaded;
    this.replayed = replayed;
    this.snapshotsWritten = snapshots.count;
  }

  /** Whether the file at `path` still holds `position`, as the same bytes. */
  static async reaches(path: string, position: LogPosition): Promise<boolean> {
    const handle = await open(path, 'r').catch(() => undefined);
    if (!handle) return false;
    try {
      const expected = Buffer.from(position.tail, 'base64');
      const { size } = await handle.stat();
      if (position.bytes > size || expected.length > position.bytes || expected.length === 0) return false;
      const actual = Buffer.alloc(expected.length);
      await handle.read(actual, 0, actual.length, position.bytes - actual.length);
      return actual.equals(expected);
    } finally {
      await handle.close();
    }
  }

  static async open(path: string, opening: PlayLogOptions): Promise<PlayLog> {
    // A version-1 log is rewritten in version 2 first; a position in the old file means nothing now.
    const migrated = await migrateV1Log(path, opening.logger);
    const options = migrated ? { ...opening, from: undefined } : opening;
    const existing = await stat(path).catch((error: unknown) => {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw error;
    });
    // 'a': every write lands at the end of the file, whatever else happened to it.
    const handle = await open(path, 'a+', 0o600);
    try {
      let bytes: number;
      let loaded = 0;
      let replayed = 0;
      let snapshots = new LogSnapshots();
      const header = existing && existing.size > 0 ? await readHeader(handle) : undefined;
      if (header && header.bytes < 0 && (existing?.size ?? 0) >= HEADER_PROBE_BYTES) {
        // No header line, and too long to be one cut short: not a play log this code wrote.
        throw new Error(`play log ${path} has no header line; this server reads ${SCHEMA_VERSION}`);
      }
      if (!header || header.bytes < 0) {
        // A new log (or one created just before a crash): write the header and make the file's
        // name durable too.
        if (existing) await handle.truncate(0);
        await handle.write(HEADER);
        await handle.sync();
        if (!existing) await fsyncDir(dirname(path));
        bytes = Buffer.byteLength(HEADER);
      } else {
        checkVersion(path, header.text);
        const from = options.from;
        if (from) snapshots = from.snapshots;
        const result = await readLog({
          ...options,
          handle,
          path,
          startAt: from?.position.bytes ?? header.bytes,
          endAt: null,
          fileBytes: existing?.size ?? 0,
          snapshots,
        });
        replayed = result.read;
        bytes = result.goodBytes;
        loaded = (from?.position.entries ?? 0) + replayed;
        if (result.goodBytes < result.fileBytes) {
          // A torn last line: cut it off so the next append does not glue onto it.
          await handle.truncate(result.goodBytes);
          await handle.sync();
        }
      }
      snapshots.release();
      const tail = Buffer.alloc(Math.min(POSITION_TAIL_BYTES, bytes));
      await handle.read(tail, 0, tail.length, bytes - tail.length);
      return new PlayLog(
        handle,
        path,
        options.logger,
        bytes,
        tail,
        options.onEntry,
        snapshots,
        loaded,
        replayed,
      );
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Reads the durable entries again, from the first, and hands each to `onEntry` with its snapshot
   * number and line, or all to `onRows` when given, as `open` did (to rebuild what was built from
   * them). Entries that become durable meanwhile are not read: they reach the log's own `onEntry`.
   */
  async replay(
    onEntry: (entry: PlayLogEntry, snapshot: number, line: number) => void,
    onRows?: (rows: LoggedRows, names: LoggedNames) => void,
  ): Promise<void> {
    // Taken now: what is appended from here on is delivered as usual, never read here too.
    const end = this.bytes;
    const handle = await open(this.path, 'r');
    try {
      const header = await readHeader(handle);
      if (!header || header.bytes < 0) return;
      const read = new LogSnapshots();
      await readLog({
        handle,
        path: this.path,
        logger: this.logger,
        startAt: header.bytes,
        endAt: end,
        fileBytes: end,
        snapshots: read,
        onEntry,
        onRows,
      });
      // The index is rebuilt because what a saved index gave back did not fit: its snapshot texts
      // may be what was wrong.
      this.snapshots.repairFrom(read);
    } finally {
      await handle.close();
    }
  }

  /** Entries loaded at open plus entries appended since. */
  get size(): number {
    return this.entries;
  }

  /** How many write+fsync rounds were made; fewer than appends when they were grouped. */
  get batches(): number {
    return this.batchCount;
  }

  /** Resolves once the entry's line is written and fsynced. */
  append(entry: PlayLogEntry): Promise<void> {
    return this.enqueue([entry]);
  }

  /** Appends many entries in one write; for imports and the bench's generator. */
  appendMany(entries: PlayLogEntry[]): Promise<void> {
    if (entries.length === 0) return this.flush();
    return this.enqueue(entries);
  }

  /** How many snapshots the lines before `position()` define (later ones may be on their way). */
  get durableSnapshots(): number {
    return this.snapshotsWritten;
  }

  /** The point after the durable entries: exactly those `onEntry` has been given. */
  position(): LogPosition {
    return { bytes: this.bytes, entries: this.entries, tail: this.tail.toString('base64') };
  }

  /**
   * The log id on the line starting at byte `line` (as handed to `onEntry`). A synchronous read of
   * one short line, for the few rows a statistics read returns: they are near the end of the file
   * or were just read, so in the page cache.
   */
  idAt(line: number): string {
    let buf = Buffer.allocUnsafe(ID_READ_BYTES);
    for (;;) {
      const read = readSync(this.handle.fd, buf, 0, buf.length, line);
      const end = buf.subarray(0, read).indexOf(0x0a);
      if (end >= 0) {
        const decoded = decodePlayLine(buf, 0, end);
        if (decoded) return decoded.id;
        break;
      }
      if (read < buf.length) break;
      buf = Buffer.allocUnsafe(buf.length * 4);
    }
    throw new Error(`play log ${this.path}: no log line at byte ${line}`);
  }

  /** Waits until everything appended so far is durable (or has failed). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush();
    await this.handle.close();
  }

  private enqueue(entries: PlayLogEntry[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`play log ${this.path} is closed`));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ entries, resolve, reject });
      if (!this.writing) this.writing = this.drain();
    });
  }

  /** Writes batch after batch until the queue is empty; one write and one fsync per batch. */
  private async drain(): Promise<void> {
    try {
      // Let appends made in the same tick join the first batch too.
      await Promise.resolve();
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        this.batchCount += 1;
        // Lines are made here, not at append: a snapshot is defined by the first batch that
        // reaches the file with it, and forgotten again when that batch fails.
        const definedBefore = this.snapshots.count;
        const numbers: number[] = [];
        const offsets: number[] = [];
        try {
          const lines: string[] = [];
          let offset = this.bytes;
          for (const pending of batch) {
            for (const entry of pending.entries) {
              // numberFor may add the line defining the entry's snapshot before its own.
              const before = lines.length;
              const n = this.snapshots.numberFor(entry, lines);
              for (let i = before; i < lines.length; i += 1) offset += Buffer.byteLength(lines[i]!);
              const line = playLine(entry, n);
              numbers.push(n);
              offsets.push(offset);
              lines.push(line);
              offset += Buffer.byteLength(line);
            }
          }
          const buffer = Buffer.from(lines.join(''));
          await writeAll(this.handle, buffer);
          await this.handle.datasync();
          this.bytes += buffer.length;
          this.tail = lastBytes(this.tail, buffer);
          this.snapshotsWritten = this.snapshots.count;
        } catch (error) {
          this.logger.error('play log: write failed', { path: this.path, error: String(error) });
          this.snapshots.truncate(definedBefore);
          await this.cutBack();
          for (const pending of batch) pending.reject(error);
          continue;
        }
        let k = 0;
        for (const pending of batch) {
          for (const entry of pending.entries) {
            this.deliver(entry, numbers[k]!, offsets[k]!);
            k += 1;
          }
          this.entries += pending.entries.length;
          pending.resolve();
        }
      }
    } finally {
      this.writing = null;
    }
  }

  /**
   * Hands a durable entry to `onEntry`. The entry is on disk whatever happens here, so its append
   * still resolves; a failure is logged and marked (`entriesMissed`), so whoever built something
   * from the entries can tell it is incomplete.
   */
  private deliver(entry: PlayLogEntry, snapshot: number, line: number): void {
    try {
      this.onEntry(entry, snapshot, line);
    } catch (error) {
      this.entriesMissed = true;
      this.logger.error('play log: indexing a durable entry failed', {
        path: this.path,
        error: String(error),
      });
    }
  }

  /** After a failed write, drop whatever part of it reached the file, so the log stays parseable. */
  private async cutBack(): Promise<void> {
    try {
      await this.handle.truncate(this.bytes);
    } catch (error) {
      this.logger.error('play log: could not cut back a failed write', {
        path: this.path,
        error: String(error),
      });
    }
  }
}

/** The last POSITION_TAIL_BYTES of `before` followed by `added`. */
function lastBytes(before: Buffer, added: Buffer): Buffer {
  if (added.length >= POSITION_TAIL_BYTES)
    return Buffer.from(added.subarray(added.length - POSITION_TAIL_BYTES));
  const joined = Buffer.concat([before, added]);
  return joined.subarray(Math.max(0, joined.length - POSITION_TAIL_BYTES));
}

async function writeAll(handle: FileHandle, buffer: Buffer): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
    offset += bytesWritten;
  }
}
