import type { PlayLogEntry } from '../domain/play.js';
import { decodePlayLine, decodeSnapshotLine, entryOf } from './play-log-codec.js';
import type { LineReader } from './play-log-reader.js';
import type { PlayRowReader } from './play-log-rows.js';
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
export function rowLineReader(snapshots: LogSnapshots, rows: PlayRowReader): LineReader {
  return (buf, start, end, offset) => {
    if (buf[start] === 0x7b /* { */) return defineSnapshot(snapshots, buf, start, end);
    return rows.read(buf, start, end, offset);
  };
}

function defineSnapshot(snapshots: LogSnapshots, buf: Buffer, start: number, end: number): boolean {
  const line = decodeSnapshotLine(buf.toString('utf8', start, end));
  return line !== undefined && snapshots.define(line.n, line.snapshot);
}
