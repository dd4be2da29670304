import { open, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { PlayLog, type LogPosition, type PlayLogOptions } from './play-log.js';
import { LogSnapshots } from './play-log-snapshots.js';
import { crcsMatchInSteps, SnapshotTexts } from './snapshot-texts.js';

/**
 * A saved copy of the in-memory play index (`plays.index`), so a start does not have to re-read and
 * re-index the whole log: it loads the copy and reads only the log lines after the position the
 * copy was last saved at. The copy is a cache: the log stays the only record, and a copy that is
 * missing, damaged, cut short, saved by an older Melon or for another log is ignored (the index is
 * rebuilt from the log and saved afresh).
 *
 * The index only grows, so the file does too: a save appends one segment holding what was added
 * since the previous save, and never rewrites what is there.
 *
 *   {"schemaVersion":3}\n
 *   segment*: "MPS3" | u32 head bytes | u32 texts bytes | u32 data bytes | head (JSON) | texts | data | "MPE3"
 *     head: {"position": the log position the file covers once this segment is read,
 *            "logSnapshots": how many snapshots the log defined since the previous segment,
 *            "textsCrc": the CRC-32 of the texts (absent in files of older Melons),
            "dataCrc": the CRC-32 of the data (absent in files of older Melons)}
 *     texts: those snapshots' canonical texts, each followed by a newline
 *     data: the index's own bytes for the segment, as its owner gave them
 *
 * The texts are apart from the head so that a start reads the position without reading them (a
 * collector's log defines hundreds of thousands): they are kept as bytes and read as the index
 * loads, after the server listens.
 *
 * A file an older Melon saved (of schema 2, or of schema 3 with a segment without `dataCrc`) is not
 * used: nothing would tell damage in its data, and sealing that data with a checksum of today would
 * make the damage trusted. It is rebuilt once from the log, like a damaged one, but said apart.
 */
const SCHEMA_VERSION = 3;
const COUNTING_FILE = 'plays.counting';
const HEADER = Buffer.from(`{"schemaVersion":${SCHEMA_VERSION}}\n`);
const START = 0x3353504d; // "MPS3"
const END = 0x3345504d; // "MPE3"
/** The start of a file of an older schema, and its number. */
const OLD_HEADER = /^\{"schemaVersion":(\d+)[,}]/;

/**
 * Why a saved index is not used: saved by an older Melon (rebuilt once at an upgrade), damaged or
 * cut short (or of an unknown format), or saved for another log than the one beside it.
 */
export type UnusableSavedIndex = 'older' | 'damaged' | 'other log';

export interface SavedPlayIndex {
  /** Where the log stood at the last segment. */
  position: LogPosition;
  /** The snapshots the log defines up to the position (PlayLog.snapshots.texts). */
  logSnapshots: SnapshotTexts;
  /** The index's bytes, one part per segment. */
  data: Uint8Array[];
  /** Each part's CRC-32, checked as the index loads. */
  dataCrcs: number[];
  /** The file's length, where the next segment goes. */
  bytes: number;
}

export interface PlayIndexSegment {
  position: LogPosition;
  /** The texts of the snapshots the log defined since the previous segment, each and a newline. */
  logSnapshots: { count: number; bytes: Uint8Array };
  data: Uint8Array[];
}

/** The saved index at `path`; undefined when there is none, why not when it is not usable. */
export async function readSavedPlayIndex(
  path: string,
): Promise<SavedPlayIndex | UnusableSavedIndex | undefined> {
  const file = await readFile(path).catch(() => undefined);
  if (!file) return undefined;
  return parseSavedIndex(file);
}

const startsWith = (file: Buffer, header: Buffer) =>
  file.length >= header.length && file.subarray(0, header.length).equals(header);

function parseSavedIndex(file: Buffer): SavedPlayIndex | UnusableSavedIndex {
  if (!startsWith(file, HEADER)) {
    const schema = OLD_HEADER.exec(file.toString('latin1', 0, 32))?.[1];
    return schema !== undefined && Number(schema) < SCHEMA_VERSION ? 'older' : 'damaged';
  }
  let position: LogPosition | undefined;
  const texts: Uint8Array[] = [];
  const crcs: (number | undefined)[] = [];
  let count = 0;
  const data: Uint8Array[] = [];
  const dataCrcs: number[] = [];
  let o = HEADER.length;
  while (o < file.length) {
    // Anything but whole segments to the end (a save cut short, a damaged file) and the file is not used.
    const segment = readSegment(file, o);
    if (typeof segment === 'string') return segment;
    position = segment.position;
    texts.push(segment.texts);
    crcs.push(segment.crc);
    count += segment.count;
    data.push(segment.data);
    dataCrcs.push(segment.dataCrc);
    o = segment.end;
  }
  if (!position) return 'damaged';
  // Copied apart from the file at their first use (after listening): the file is let go once the
  // index has taken its data.
  return {
    position,
    // Checked against their CRC-32s as they are copied, after listening.
    logSnapshots: SnapshotTexts.fromBytes(texts, count, crcs),
    data,
    dataCrcs,
    bytes: file.length,
  };
}

interface ReadSegment {
  crc?: number;
  dataCrc: number;
  position: LogPosition;
  count: number;
  texts: Uint8Array;
  data: Uint8Array;
  /** Where the next segment starts. */
  end: number;
}

function readSegment(file: Buffer, o: number): ReadSegment | 'older' | 'damaged' {
  if (o + 16 > file.length || file.readUInt32LE(o) !== START) return 'damaged';
  const headBytes = file.readUInt32LE(o + 4);
  const textBytes = file.readUInt32LE(o + 8);
  const dataBytes = file.readUInt32LE(o + 12);
  const textStart = o + 16 + headBytes;
  const dataStart = textStart + textBytes;
  const end = dataStart + dataBytes;
  if (end + 4 > file.length || file.readUInt32LE(end) !== END) return 'damaged';
  const head = parseHead(file.toString('utf8', o + 16, textStart));
  if (
    !head ||
    typeof head.logSnapshots !== 'number' ||
    !Number.isInteger(head.logSnapshots) ||
    head.logSnapshots < 0
  )
    return 'damaged';
  const crc = head.textsCrc;
  if (crc !== undefined && (typeof crc !== 'number' || !Number.isInteger(crc))) return 'damaged';
  // Saved before the data had a checksum: nothing tells its damage, so it is rebuilt once.
  const { dataCrc } = head;
  if (dataCrc === undefined) return 'older';
  if (typeof dataCrc !== 'number' || !Number.isInteger(dataCrc)) return 'damaged';
  return {
    position: head.position,
    count: head.logSnapshots,
    crc,
    dataCrc,
    texts: file.subarray(textStart, dataStart),
    data: file.subarray(dataStart, end),
    end: end + 4,
  };
}

function parseHead(
  text: string,
): { position: LogPosition; logSnapshots: unknown; textsCrc?: unknown; dataCrc?: unknown } | undefined {
  let head: {
    position?: Partial<LogPosition>;
    logSnapshots?: unknown;
    textsCrc?: unknown;
    dataCrc?: unknown;
  };
  try {
    head = JSON.parse(text) as typeof head;
  } catch {
    return undefined;
  }
  const { position, logSnapshots, textsCrc, dataCrc } = head;
  if (
    typeof position?.bytes !== 'number' ||
    typeof position.entries !== 'number' ||
    typeof position.tail !== 'string'
  ) {
    return undefined;
  }
  return { position: position as LogPosition, logSnapshots, textsCrc, dataCrc };
}

function segmentParts(segment: PlayIndexSegment): Uint8Array[] {
  const texts = segment.logSnapshots.bytes;
  const head = Buffer.from(
    JSON.stringify({
      position: segment.position,
      logSnapshots: segment.logSnapshots.count,
      textsCrc: crc32(texts),
      // An empty part is skipped: zlib's crc32 gives 0 for one that has no memory behind it.
      dataCrc: segment.data.reduce((crc, part) => (part.byteLength > 0 ? crc32(part, crc) : crc), 0),
    }),
  );
  const dataBytes = segment.data.reduce((sum, part) => sum + part.byteLength, 0);
  const start = Buffer.alloc(16);
  start.writeUInt32LE(START, 0);
  start.writeUInt32LE(head.length, 4);
  start.writeUInt32LE(texts.byteLength, 8);
  start.writeUInt32LE(dataBytes, 12);
  const end = Buffer.alloc(4);
  end.writeUInt32LE(END, 0);
  return [start, head, texts, ...segment.data, end];
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
  /** Whether the data are the bytes saved (their CRC-32s), in steps: the index checks before it loads. */
  checkDataInSteps: () => Generator<void, boolean>;
  /** The file's length, where the next segment goes. */
  bytes: number;
}

/**
 * `plays.index`, beside the play log it was saved for. The store keeps its bytes; whoever builds an
 * index from the log decides what they hold and when they are saved.
 */
export class SavedPlayIndexFile {
  /**
   * `plays.counting` beside it: how the index's plays count in the library of one stamp, saved with
   * the index by whoever builds it (JSON; stats/persistence/saved-counting.ts).
   */
  readonly countingPath: string;

  constructor(
    readonly path: string,
    private readonly logPath: string,
  ) {
    this.countingPath = join(dirname(path), COUNTING_FILE);
  }

  /** The saved counting as parsed JSON; undefined when there is none or it is not JSON. */
  async readCounting(): Promise<unknown> {
    const text = await readFile(this.countingPath, 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }

  /** Replaces the saved counting (a crash-safe write). */
  async writeCounting(value: unknown): Promise<void> {
    await writeFileAtomic(this.countingPath, [Buffer.from(JSON.stringify(value))], 0o600);
  }

  /** Removes the saved counting, if any. */
  async removeCounting(): Promise<void> {
    await rm(this.countingPath, { force: true });
  }

  /**
   * The saved copy; undefined when there is none, why not when it is not usable: saved by an older
   * Melon, damaged, cut short, of another format, or for another log than the one beside it (or an
   * older state of it).
   */
  async read(): Promise<SavedPlayIndexCopy | UnusableSavedIndex | undefined> {
    const saved = await readSavedPlayIndex(this.path);
    if (saved === undefined || typeof saved === 'string') return saved;
    const snapshots = LogSnapshots.fromTexts(saved.logSnapshots);
    if (!(await PlayLog.reaches(this.logPath, saved.position))) return 'other log';
    return {
      from: { position: saved.position, snapshots },
      logSnapshots: saved.logSnapshots.count,
      data: saved.data,
      checkDataInSteps: () => crcsMatchInSteps(saved.data, saved.dataCrcs),
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
