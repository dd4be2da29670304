import { deserialize } from 'node:v8';
import type { PlayLogEntry } from '../../../domain/play.js';
import { OTHER_ID, type UserColumns } from '../columns/user-columns.js';

/**
 * The saved form of the index (kept in plays.index, see saved-play-index.ts): a sequence of
 * blocks, each holding what was added since the previous one, so a save appends and never rewrites.
 * A block is the new entries of the tables as JSON (users, devices, and the new snapshots: how
 * many of the play log's next ones, or their texts for an index not fed by a log), the log's new
 * snapshots as binary columns (saved-snapshots.ts), then one fixed-size record per log in the order
 * they were added:
 *
 *   "MIX3" | u32 JSON bytes | JSON | snapshots (JSON `tableBytes` of them) | records
 *   record (28 bytes, little-endian): f64 at | u32 user | u32 snapshot | u32 device + 1 (0: none) |
 *     u32 flags | u32 ref (as in user-columns.ts: with the high bits of flags, where the log's line
 *     starts in the play log; or, flag OTHER_ID, an index into the block's `otherIds`)
 *
 * Loading replays the records and copies the snapshot columns: no text is parsed but the JSON.
 * Format 3 (no snapshot columns: the log's snapshots are read from its texts and interned one by
 * one) still loads; format 2 (40-byte records holding the packed ids) is not read: such an index is
 * rebuilt from the log once.
 */
export const RECORD_BYTES = 28;
const MAGIC = 0x3358494d; // "MIX3"
const FORMAT = 4;
/** Blocks without snapshot columns. */
const OLDER_FORMAT = 3;

export interface SavedBlock {
  users: string[];
  devices: string[];
  /** How many new snapshots are the play log's next ones (numbered as the log numbers them). */
  logSnapshots: number;
  /** Or the new snapshots' canonical texts (play-log-codec.ts snapshotText). */
  snapshots: string[];
  otherIds: string[];
  count: number;
  records: Uint8Array;
  /** The log's new snapshots as columns (saved-snapshots.ts); absent in format 3. */
  table?: Uint8Array;
}

interface TableCounts {
  users: number;
  devices: number;
  snapshots: number;
  /** The sizes of the interners the snapshots refer to (saved-snapshots.ts INTERNERS). */
  interned: number[];
}

/** Rows being gathered for the next block. */
export class SavedRecords {
  private bytes = new Uint8Array(0);
  private view = new DataView(this.bytes.buffer);
  private count = 0;
  private readonly otherIds: string[] = [];

  /** `from`: the table entries already saved in earlier blocks. */
  constructor(
    private readonly from: TableCounts = { users: 0, devices: 0, snapshots: 0, interned: [0, 0, 0, 0, 0] },
  ) {}

  addRow(u: UserColumns, row: number): void {
    const flags = u.flags[row]!;
    let ref = u.ref[row]!;
    if (flags & OTHER_ID) {
      this.otherIds.push(u.otherIds[ref]!);
      ref = this.otherIds.length - 1;
    }
    this.addRecord(u.at[row]!, u.userIdx, u.snap[row]!, u.device[row]!, flags, ref);
  }

  /**
   * Room for `records` records in all; when it must be made, room for `wanted` (more rows expected
   * soon), and at least a step of growth.
   */
  reserve(records: number, wanted = records): void {
    const room = this.bytes.length / RECORD_BYTES;
    if (records <= room) return;
    const next = new Uint8Array(Math.max(records, wanted, 64, Math.ceil(room * 1.5)) * RECORD_BYTES);
    next.set(this.bytes.subarray(0, this.count * RECORD_BYTES));
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }

  get size(): number {
    return this.count;
  }

  /** A row's record from its fields (as `addRow` reads them from the columns). */
  addRecord(at: number, userIdx: number, s: number, device: number, flags: number, ref: number): void {
    this.reserve(this.count + 1);
    const o = this.count * RECORD_BYTES;
    const v = this.view;
    v.setFloat64(o, at, true);
    v.setUint32(o + 8, userIdx, true);
    v.setUint32(o + 12, s, true);
    v.setUint32(o + 16, device, true);
    v.setUint32(o + 20, flags, true);
    v.setUint32(o + 24, ref, true);
    this.count += 1;
  }

  /** The block: these rows, and the table entries made since `from` (`tables` are the whole tables). */
  block(tables: {
    users: string[];
    devices: string[];
    snapshots: (
      from: number,
      interned: number[],
    ) => { logSnapshots: number; texts: string[]; table?: Uint8Array };
  }): SavedBlock {
    const snapshots = tables.snapshots(this.from.snapshots, this.from.interned);
    return {
      users: tables.users.slice(this.from.users),
      devices: tables.devices.slice(this.from.devices),
      logSnapshots: snapshots.logSnapshots,
      snapshots: snapshots.texts,
      otherIds: this.otherIds,
      count: this.count,
      records: this.bytes.subarray(0, this.count * RECORD_BYTES),
      ...(snapshots.table && { table: snapshots.table }),
    };
  }
}

/** A block's bytes, as parts to write one after the other (the records are not copied). */
export function encodeBlock(block: SavedBlock): Uint8Array[] {
  const { records, table, ...tables } = block;
  const json = Buffer.from(JSON.stringify({ format: FORMAT, ...tables, tableBytes: table?.byteLength ?? 0 }));
  const head = Buffer.alloc(8);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(json.length, 4);
  return table ? [head, json, table, records] : [head, json, records];
}

export function encodeSavedIndex(blocks: SavedBlock[]): Uint8Array {
  return Buffer.concat(blocks.flatMap(encodeBlock));
}

export type DecodedIndex =
  { kind: 'blocks'; blocks: SavedBlock[] } | { kind: 'entries'; entries: PlayLogEntry[] };

/**
 * The blocks in `parts` (each holding one or more blocks), or the entries of an index saved by an
 * older Melon (format 1); undefined when the bytes are neither.
 */
export function decodeSavedIndex(parts: Uint8Array[]): DecodedIndex | undefined {
  if (parts.length === 1 && parts[0]![0] === 0xff) {
    const entries = decodeFormat1(parts[0]!);
    return entries && { kind: 'entries', entries };
  }
  const blocks: SavedBlock[] = [];
  for (const part of parts) {
    const buf = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    let o = 0;
    while (o < buf.length) {
      if (o + 8 > buf.length || buf.readUInt32LE(o) !== MAGIC) return undefined;
      const jsonBytes = buf.readUInt32LE(o + 4);
      if (o + 8 + jsonBytes > buf.length) return undefined;
      const tables = parseTables(buf.toString('utf8', o + 8, o + 8 + jsonBytes));
      if (!tables) return undefined;
      const { tableBytes, format, ...block } = tables;
      const start = o + 8 + jsonBytes + tableBytes;
      const end = start + tables.count * RECORD_BYTES;
      if (end > buf.length) return undefined;
      const table =
        format === FORMAT && tableBytes > 0 ? { table: buf.subarray(start - tableBytes, start) } : {};
      blocks.push({ ...block, ...table, records: buf.subarray(start, end) });
      o = end;
    }
  }
  return { kind: 'blocks', blocks };
}

function parseTables(
  text: string,
): (Omit<SavedBlock, 'records' | 'table'> & { format: number; tableBytes: number }) | undefined {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
  const { format, users, devices, logSnapshots, snapshots, otherIds, count } = value;
  const tableBytes = format === FORMAT ? value['tableBytes'] : 0;
  if (
    (format !== FORMAT && format !== OLDER_FORMAT) ||
    typeof tableBytes !== 'number' ||
    !Number.isInteger(tableBytes) ||
    tableBytes < 0 ||
    typeof logSnapshots !== 'number' ||
    !Number.isInteger(logSnapshots) ||
    logSnapshots < 0 ||
    !strings(users) ||
    !strings(devices) ||
    !strings(snapshots) ||
    !strings(otherIds) ||
    typeof count !== 'number' ||
    !Number.isInteger(count) ||
    count < 0
  ) {
    return undefined;
  }
  return { format, tableBytes, users, devices, logSnapshots, snapshots, otherIds, count };
}

// ---- format 1: the whole index as one v8-serialized object graph (Melon before the snapshots) ----

/** Format 1 kept server-made log ids (22 base64url characters) packed in 16 bytes. */
const ID_BYTES = 16;

interface Format1Columns {
  n: number;
  at: Float64Array;
  track: Int32Array;
  album: Int32Array;
  duration: Float64Array;
  device: Int32Array;
  flags: Uint8Array;
  artStart: Int32Array;
  artCount: Uint16Array;
  genStart: Int32Array;
  genCount: Uint16Array;
  trackName: Int32Array;
  albumName: Int32Array;
  idBytes: Uint8Array;
  idRef: Int32Array;
  otherIds: string[];
  artFlat: Int32Array;
  artNameFlat: Int32Array;
  genFlat: Int32Array;
  userIdx: number;
}

/** The entries an index saved in format 1 holds, per user in its row order; undefined if it is not one. */
function decodeFormat1(bytes: Uint8Array): PlayLogEntry[] | undefined {
  try {
    const data = deserialize(bytes) as { format?: unknown; index?: Record<string, unknown> };
    if (data.format !== 1 || typeof data.index !== 'object' || data.index === null) return undefined;
    const saved = data.index;
    const values = (key: string) => (saved[key] as { values: string[] }).values;
    const users = values('users');
    const tracks = values('tracks');
    const albums = values('albums');
    const artists = values('artists');
    const names = values('names');
    const rawGenres = values('rawGenres');
    const devices = values('devices');
    const columns = saved['columns'] as (Format1Columns | undefined)[];
    if (![users, tracks, albums, artists, names, rawGenres, devices, columns].every(Array.isArray))
      return undefined;
    const entries: PlayLogEntry[] = [];
    const name = (idx: number) => (idx < 0 ? null : names[idx]!);
    for (const c of columns) {
      if (!c) continue;
      for (let row = 0; row < c.n; row += 1) {
        const artistIds: string[] = [];
        const artistNames: string[] = [];
        for (let i = c.artStart[row]!; i < c.artStart[row]! + c.artCount[row]!; i += 1) {
          artistIds.push(artists[c.artFlat[i]!]!);
          artistNames.push(names[c.artNameFlat[i]!]!);
        }
        const genres: string[] = [];
        for (let i = c.genStart[row]!; i < c.genStart[row]! + c.genCount[row]!; i += 1)
          genres.push(rawGenres[c.genFlat[i]!]!);
        const ref = c.idRef[row]!;
        const album = c.album[row]!;
        const device = c.device[row]!;
        entries.push({
          id:
            ref >= 0
              ? c.otherIds[ref]!
              : Buffer.from(c.idBytes.buffer, c.idBytes.byteOffset + row * ID_BYTES, ID_BYTES).toString(
                  'base64url',
                ),
          userId: users[c.userIdx]!,
          trackId: tracks[c.track[row]!]!,
          albumId: album < 0 ? null : albums[album]!,
          artistIds,
          genres,
          durationMs: c.duration[row]!,
          device: device < 0 ? null : devices[device]!,
          type: c.flags[row]! & 1 ? 'skip' : 'play',
          at: c.at[row]!,
          explicitAt: (c.flags[row]! & 2) !== 0,
          trackName: name(c.trackName[row]!),
          albumName: name(c.albumName[row]!),
          artistNames,
        });
      }
    }
    return entries;
  } catch {
    return undefined;
  }
}
