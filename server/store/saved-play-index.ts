import { open, readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { PlayLog, type LogPosition, type PlayLogOptions } from './play-log.js';
import { LogSnapshots } from './play-log-snapshots.js';

/**
 * A saved copy of the in-memory play index (`plays.index`), so a start does not have to re-read and
 * re-index the whole log: it loads the copy and reads only the log lines after the position the
 * copy was last saved at. The copy is a cache: the log stays the only record, and a copy that is
 * missing, damaged, cut short, of another format or for another log is ignored (the index is
 * rebuilt from the log and saved afresh).
 *
 * The index only grows, so the file does too: a save appends one segment holding what was added
 * since the previous save, and never rewrites what is there.
 *
 *   {"schemaVersion":2}\n
 *   segment*: "MPS2" | u32 head bytes | u32 data bytes | head (JSON) | data | "MPE2"
 *     head: {"position": the log position the file covers once this segment is read,
 *            "logSnapshots": the snapshots the log defined since the previous segment}
 *     data: the index's own bytes for the segment, as its owner gave them
 */
const SCHEMA_VERSION = 2;
const HEADER = Buffer.from(`{"schemaVersion":${SCHEMA_VERSION}}\n`);
const START = 0x3253504d; // "MPS2"
const END = 0x3245504d; // "MPE2"

export interface SavedPlayIndex {
  /** Where the log stood at the last segment. */
  position: LogPosition;
  /** The snapshots the log defines up to the position (PlayLog.snapshots.texts). */
  logSnapshots: string[];
  /** The index's bytes, one part per segment. */
  data: Uint8Array[];
  /** The file's length, where the next segment goes. */
  bytes: number;
}

export interface PlayIndexSegment {
  position: LogPosition;
  logSnapshots: string[];
  data: Uint8Array[];
}

/** The saved index at `path`; undefined when there is none, null when it is not usable. */
export async function readSavedPlayIndex(path: string): Promise<SavedPlayIndex | null | undefined> {
  const file = await readFile(path).catch(() => undefined);
  if (!file) return undefined;
  return parseSavedIndex(file);
}

function parseSavedIndex(file: Buffer): SavedPlayIndex | null {
  if (file.length < HEADER.length || !file.subarray(0, HEADER.length).equals(HEADER)) return null;
  let position: LogPosition | undefined;
  const logSnapshots: string[] = [];
  const data: Uint8Array[] = [];
  let o = HEADER.length;
  while (o < file.length) {
    // Anything but whole segments to the end (a save cut short, a damaged file) and the file is not used.
    if (o + 12 > file.length || file.readUInt32LE(o) !== START) return null;
    const headBytes = file.readUInt32LE(o + 4);
    const dataBytes = file.readUInt32LE(o + 8);
    const dataStart = o + 12 + headBytes;
    const end = dataStart + dataBytes;
    if (end + 4 > file.length || file.readUInt32LE(end) !== END) return null;
    const head = parseHead(file.toString('utf8', o + 12, dataStart));
    if (!head) return null;
    position = head.position;
    for (const text of head.logSnapshots) logSnapshots.push(text);
    data.push(file.subarray(dataStart, end));
    o = end + 4;
  }
  if (!position) return null;
  return { position, logSnapshots, data, bytes: file.length };
}

function parseHead(text: string): Omit<PlayIndexSegment, 'data'> | undefined {
  let head: Partial<PlayIndexSegment>;
  try {
    head = JSON.parse(text) as Partial<PlayIndexSegment>;
  } catch {
    return undefined;
  }
  const { position, logSnapshots } = head;
  if (
    typeof position?.bytes !== 'number' ||
    typeof position.entries !== 'number' ||
    typeof position.tail !== 'string' ||
    !Array.isArray(logSnapshots) ||
    !logSnapshots.every((s) => typeof s === 'string')
  ) {
    return undefined;
  }
  return { position, logSnapshots };
}

function segmentParts(segment: PlayIndexSegment): Uint8Array[] {
  const head = Buffer.from(
    JSON.stringify({ position: segment.position, logSnapshots: segment.logSnapshots }),
  );
  const dataBytes = segment.data.reduce((sum, part) => sum + part.byteLength, 0);
  const start = Buffer.alloc(12);
  start.writeUInt32LE(START, 0);
  start.writeUInt32LE(head.length, 4);
  start.writeUInt32LE(dataBytes, 8);
  const end = Buffer.alloc(4);
  end.writeUInt32LE(END, 0);
  return [start, head, ...segment.data, end];
}

/** Replaces the file with one holding only `segment` (a new or rebuilt index); its new length. */
export async function writeSavedPlayIndex(path: string, segment: PlayIndexSegment): Promise<number> {
  const parts = [HEADER, ...segmentParts(segment)];
  await writeFileAtomic(path, parts, 0o600);
  return parts.reduce((sum, part) => sum + part.byteLength, 0);
}

/**
 * Appends `segment` to a file of `bytes` bytes (as read or last written) and fsyncs it; its new
 * length. A crash part way leaves a file that is not used at the next start (it is rebuilt).
 */
export async function appendPlayIndexSegment(
  path: string,
  bytes: number,
  segment: PlayIndexSegment,
): Promise<number> {
  const handle = await open(path, 'r+');
  try {
    const { size } = await handle.stat();
    if (size !== bytes) throw new Error(`${path} changed behind the server's back`);
    let offset = bytes;
    for (const part of segmentParts(segment)) {
      let written = 0;
      while (written < part.byteLength) {
        const { bytesWritten } = await handle.write(part, written, part.byteLength - written, offset);
        written += bytesWritten;
        offset += bytesWritten;
      }
    }
    await handle.datasync();
    return offset;
  } finally {
    await handle.close();
  }
}

export async function removeSavedPlayIndex(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** A saved index read back and checked against the log it was saved for. */
export interface SavedPlayIndexCopy {
  /** Where reading the log goes on from (PlayLogOptions.from). */
  from: NonNullable<PlayLogOptions['from']>;
  /** How many of the log's snapshots the file holds (a segment appended next holds the rest). */
  logSnapshots: number;
  /** The index's bytes, one part per segment. */
  data: Uint8Array[];
  /** The file's length, where the next segment goes. */
  bytes: number;
}

/**
 * `plays.index`, beside the play log it was saved for. The store keeps its bytes; whoever builds an
 * index from the log decides what they hold and when they are saved.
 */
export class SavedPlayIndexFile {
  constructor(
    readonly path: string,
    private readonly logPath: string,
  ) {}

  /**
   * The saved copy; undefined when there is none, null when it is not usable: damaged, cut short, of
   * another format, or for another log than the one beside it (or an older state of it).
   */
  async read(): Promise<SavedPlayIndexCopy | null | undefined> {
    const saved = await readSavedPlayIndex(this.path);
    if (!saved) return saved;
    const snapshots = LogSnapshots.fromTexts(saved.logSnapshots);
    if (!(await PlayLog.reaches(this.logPath, saved.position))) return null;
    return {
      from: { position: saved.position, snapshots },
      logSnapshots: saved.logSnapshots.length,
      data: saved.data,
      bytes: saved.bytes,
    };
  }

  /** Replaces the file with one holding only `segment`; its new length. */
  write(segment: PlayIndexSegment): Promise<number> {
    return writeSavedPlayIndex(this.path, segment);
  }

  /** Appends `segment` to the file of `bytes` bytes and fsyncs it; its new length. */
  append(bytes: number, segment: PlayIndexSegment): Promise<number> {
    return appendPlayIndexSegment(this.path, bytes, segment);
  }

  remove(): Promise<void> {
    return removeSavedPlayIndex(this.path);
  }
}
