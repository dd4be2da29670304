import type { LoggedNames, LoggedRows, PlayLogEntry } from '../domain/play.js';
import { decodePlayLine, decodeSnapshotLine, entryOf } from './play-log-codec.js';
import type { FileHandle } from 'node:fs/promises';
import { readLines, type LineReader, type ReadResult } from './play-log-reader.js';
import { readRowsInThread, ROW_THREAD_BYTES, type RowThreadRead } from './play-log-row-thread.js';
import { PlayRowReader } from './play-log-rows.js';
import type { LogSnapshots } from './play-log-snapshots.js';

/**
 * Reads a play log's lines (readLines): snapshot lines define `snapshots`, each log line goes to
 * `onEntry` with its snapshot number and where its line starts.
 */
export function lineReader(
  snapshots: LogSnapshots,
  onEntry: (entry: PlayLogEntry, snapshot: number, line: number) => void,
): LineReader {
  return (buf, start, end, offset) => {
    if (buf[start] === 0x7b /* { */) return defineSnapshot(snapshots, buf, start, end);
    const line = decodePlayLine(buf, start, end);
    if (!line) return false;
    const snapshot = snapshots.at(line.snapshot);
    // A snapshot a saved index gave back that does not read: the line itself is whole and is kept
    // (never cut off as a torn last line). The index is rebuilt from the whole log, once its check
    // of the saved index finds that text.
    if (!snapshot) return line.snapshot < snapshots.count;
    onEntry(entryOf(line, snapshot), line.snapshot, offset);
    return true;
  };
}

/** `lineReader`, with the log lines read as rows by `rows` (PlayRowReader). */
export function rowLineReader(snapshots: Pick<LogSnapshots, 'define'>, rows: PlayRowReader): LineReader {
  return (buf, start, end, offset) => {
    if (buf[start] === 0x7b /* { */) return defineSnapshot(snapshots, buf, start, end);
    return rows.read(buf, start, end, offset);
  };
}

function defineSnapshot(
  snapshots: Pick<LogSnapshots, 'define'>,
  buf: Buffer,
  start: number,
  end: number,
): boolean {
  const line = decodeSnapshotLine(buf.toString('utf8', start, end));
  return line !== undefined && snapshots.define(line.n, line.snapshot);
}

/**
 * Reads a log's lines (readLines) into `onRows` as rows when it is given, else into `onEntry`;
 * `flush` hands over the last rows and says how many entries or rows were read. `fileBytes`: where
 * the log ends, for the rows' estimate of those to come.
 */
export function logLines(
  snapshots: LogSnapshots,
  onEntry: (entry: PlayLogEntry, snapshot: number, line: number) => void,
  onRows: ((rows: LoggedRows, names: LoggedNames) => void) | undefined,
  fileBytes: number,
): { read: LineReader; flush: () => number } {
  if (onRows) {
    const rows = new PlayRowReader(snapshots, onRows, fileBytes);
    return { read: rowLineReader(snapshots, rows), flush: () => rows.flush() };
  }
  let entries = 0;
  const read = lineReader(snapshots, (entry, snapshot, line) => {
    entries += 1;
    onEntry(entry, snapshot, line);
  });
  return { read, flush: () => entries };
}

export interface LogRead extends Omit<RowThreadRead, 'onRows'> {
  handle: FileHandle;
  onEntry: (entry: PlayLogEntry, snapshot: number, line: number) => void;
  onRows?: ((rows: LoggedRows, names: LoggedNames) => void) | undefined;
  /**
   * Whether rows read with no snapshot defined yet (from the first line) go through a worker
   * thread (play-log-row-thread.ts); by default when there are ROW_THREAD_BYTES or more to read.
   */
  rowThread?: boolean | undefined;
}

/** `read`, taking the lines that start at or after `endAt` as read without looking at them. */
export function upTo(endAt: number | null, read: LineReader): LineReader {
  return endAt === null
    ? read
    : (buf, start, end, offset) => offset >= endAt || read(buf, start, end, offset);
}

/** Reads a log's lines as `logLines` has them; `read`: how many entries or rows were read. */
export async function readLog(log: LogRead): Promise<ReadResult & { read: number }> {
  const { onRows, snapshots, startAt, endAt, fileBytes } = log;
  const bytes = (endAt ?? fileBytes) - startAt;
  if (onRows && snapshots.count === 0 && (log.rowThread ?? bytes >= ROW_THREAD_BYTES)) {
    const threaded = await readRowsInThread({ ...log, onRows });
    if (threaded) return { ...threaded, read: threaded.rows };
  }
  const lines = logLines(snapshots, log.onEntry, onRows, fileBytes);
  const result = await readLines(log.handle, log.path, log.logger, startAt, upTo(endAt, lines.read));
  return { ...result, read: lines.flush() };
}
