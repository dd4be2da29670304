import { snapshotText, decodeSnapshotText } from '../../../store/play-log-codec.js';
import type { PlaySnapshot } from '../../../domain/play.js';
import type { IndexTables } from '../tables/index-tables.js';
import type { SnapshotTextList } from '../../../store/snapshot-texts.js';
import { encodeSavedIndex, RECORD_BYTES, SavedRecords, type SavedBlock } from './saved-index.js';
import { lineOf, OTHER_ID, UserColumns } from '../columns/user-columns.js';
import {
  addInterned,
  decodeSnapshots,
  defineSaved,
  encodeSnapshots,
  internerCounts,
  snapshotsFit,
  type SavedSnapshots,
} from './saved-snapshots.js';
import { inPieces, ITEMS_PER_LOOK, timeIsUp } from '../../steps.js';

/** The snapshots a saved block defines: numbered as the log numbers them, or from its texts. */
export interface DefinedSnapshots {
  fromLog: boolean;
  fields: PlaySnapshot[];
  /** Or the block's snapshot columns (format 4), for a table numbered by the log. */
  saved?: SavedSnapshots;
}

/** Adds a log row to the index (StatsIndex.place); returns the row it filled in the listener's columns. */
export type PlaceRow = (userIdx: number, at: number, s: number, device: number, flags: number) => number;

/** Saved rows decoded for `PlaceRows`: `line`, where each row's log line starts (its id is there). */
export interface SavedRun {
  count: number;
  toCome: number;
  at: Float64Array;
  userOf: Int32Array;
  snap: Uint32Array;
  device: Uint32Array;
  flags: Uint8Array;
  line: Float64Array;
}

/** Adds saved rows to the index as `PlaceRow` adds each, in order, a listener's run at a time. */
export type PlaceRows = (run: SavedRun) => void;

/** The table sizes, where the next saved block's new entries start. */
export function tableCounts(tables: IndexTables) {
  return {
    users: tables.users.count,
    devices: tables.devices.names.count,
    snapshots: tables.snapshots.count,
    interned: internerCounts(tables),
  };
}

/** The tables for a block; snapshots as the log numbers them (`byLog`), or as texts. */
export function savedTables(tables: IndexTables, byLog: boolean) {
  const table = tables.snapshots;
  return {
    users: tables.users.values,
    devices: tables.devices.names.values,
    snapshots: (from: number, interned: number[]) =>
      byLog
        ? { logSnapshots: table.count - from, texts: [], table: encodeSnapshots(tables, from, interned) }
        : {
            logSnapshots: 0,
            texts: table.numberedByLog
              ? Array.from({ length: table.count - from }, (_, i) => snapshotText(table.fields(from + i)))
              : table.textsFrom(from),
          },
  };
}

/** The whole index as one saved block, its snapshots as texts (it loads without a log). */
export function savedWhole(tables: IndexTables, columns: readonly UserColumns[]): Uint8Array {
  const records = new SavedRecords();
  for (const u of columns) {
    if (!u) continue;
    for (let row = 0; row < u.n; row += 1) records.addRow(u, row);
  }
  return encodeSavedIndex([records.block(savedTables(tables, false))]);
}

/**
 * Adds a saved block's tables and rows; `snapshots` are the ones it defines (checked by blocksHold).
 * `place` adds a row to its listener and to every sum it counts in; `rowsOf` gives a listener's
 * columns, made for a new one. A generator that pauses after every `rowsPerStep` rows (and the snapshots and room that cost as much).
 */
/** Interning a saved snapshot costs about as much as adding this many saved rows. */
const SNAPSHOT_COST_IN_ROWS = 25;
/** Adding a saved string to an interner costs about as much as adding a saved row this many times. */
const STRINGS_PER_ROW = 2;

export function* addBlock(
  tables: IndexTables,
  rowsOf: (userIdx: number) => UserColumns,
  place: PlaceRow,
  placeRun: PlaceRows,
  block: SavedBlock,
  snapshots: DefinedSnapshots,
  rowsPerStep = Infinity,
): Generator<void, void> {
  const expect = (interned: number, wanted: number) => {
    if (interned !== wanted) throw new Error('saved index: tables out of step');
  };
  for (const id of block.users) expect(tables.users.intern(id), tables.users.count - 1);
  for (const name of block.devices) expect(tables.devices.intern(name), tables.devices.names.count - 1);
  const stepping = rowsPerStep !== Infinity;
  // A block saved from a whole log names thousands of snapshots, each costing as much as many rows.
  const snapshotsPerStep = Math.max(1, Math.floor(rowsPerStep / SNAPSHOT_COST_IN_ROWS));
  const { fields } = snapshots;
  for (let i = 0; i < fields.length; i += 1) {
    if (stepping && (i % snapshotsPerStep === 0 || (i % ITEMS_PER_LOOK === 0 && timeIsUp()))) yield;
    const n = tables.snapshots.count;
    expect(tables.snapshots.intern(fields[i]!, snapshots.fromLog ? n : undefined), n);
  }
  if (snapshots.saved) {
    yield* addInterned(tables, snapshots.saved, stepping ? rowsPerStep * STRINGS_PER_ROW : Infinity);
    if (stepping) yield;
    yield* defineSaved(tables, snapshots.saved);
  }
  const { records, otherIds } = block;
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const userCount = tables.users.count;
  const snapshotCount = tables.snapshots.count;
  const deviceCount = tables.devices.names.count;
  // Room for the block's rows at once (and the spare rows settle would leave), rather than growing
  // step by step.
  const rows = new Int32Array(userCount);
  for (let r = 0; r < block.count; r += 16 * ITEMS_PER_LOOK) {
    if (stepping && r > 0 && timeIsUp()) yield;
    countPerUser(view, r, Math.min(block.count, r + 16 * ITEMS_PER_LOOK), rows);
  }
  for (let userIdx = 0; userIdx < userCount; userIdx += 1) {
    if (rows[userIdx] === 0) continue;
    if (stepping) yield;
    const u = rowsOf(userIdx);
    u.reserve(UserColumns.settledRoom(u.n + rows[userIdx]!));
    // And for the sums per snapshot they count in, at most one a row or a snapshot (settling fits them).
    u.bySnapshot.ensure(snapshotCount);
    u.bySnapshot.reserve(Math.min(snapshotCount, u.bySnapshot.touchedCount + rows[userIdx]!));
  }
  if (stepping) yield;
  const counts = { users: userCount, snapshots: snapshotCount, devices: deviceCount };
  // Rows a piece at a time (inPieces), with a pause between steps for a load made in the background
  // (StatsIndex.loadInSteps), and sooner once the turn's time is up.
  const piece = Math.min(ITEMS_PER_LOOK, rowsPerStep);
  const run = savedRun(piece);
  yield* inPieces(block.count, piece, rowsPerStep, (from, to) => {
    // A row whose id is kept in memory (no log line) is added on its own, and the rows of its piece.
    if (decodeRun(view, from, to, counts, run)) placeRun(run);
    else placeRows(view, from, to, counts, place, rowsOf, otherIds);
  });
}

function savedRun(count: number): SavedRun {
  return {
    count: 0,
    toCome: 0,
    at: new Float64Array(count),
    userOf: new Int32Array(count),
    snap: new Uint32Array(count),
    device: new Uint32Array(count),
    flags: new Uint8Array(count),
    line: new Float64Array(count),
  };
}

/**
 * Decodes saved rows [from, to) of a block into `run`; false when one keeps its id in memory
 * (OTHER_ID), for `placeRows` to add them.
 */
function decodeRun(
  view: DataView,
  from: number,
  to: number,
  counts: { users: number; snapshots: number; devices: number },
  run: SavedRun,
): boolean {
  const { at, userOf, snap, device, flags, line } = run;
  for (let r = from, i = 0; r < to; r += 1, i += 1) {
    const o = r * RECORD_BYTES;
    const f = view.getUint32(o + 20, true);
    if (f & OTHER_ID) return false;
    at[i] = view.getFloat64(o, true);
    userOf[i] = view.getUint32(o + 8, true);
    snap[i] = view.getUint32(o + 12, true);
    device[i] = view.getUint32(o + 16, true);
    if (!refersToEntries(counts, userOf[i]!, snap[i]!, device[i]!))
      throw new Error('saved index: a row refers to nothing');
    flags[i] = f;
    line[i] = lineOf(view.getUint32(o + 24, true), f);
  }
  run.count = to - from;
  return true;
}

/** Whether a saved row's user, snapshot and device (+1, 0: none) are entries of the tables. */
function refersToEntries(
  counts: { users: number; snapshots: number; devices: number },
  userIdx: number,
  s: number,
  device: number,
): boolean {
  return userIdx < counts.users && s < counts.snapshots && device <= counts.devices;
}

/** Counts records [from, to) of a block per user into `rows` (a plain function: V8 compiles its loop). */
function countPerUser(view: DataView, from: number, to: number, rows: Int32Array): void {
  for (let r = from; r < to; r += 1) {
    const userIdx = view.getUint32(r * RECORD_BYTES + 8, true);
    rows[userIdx] = rows[userIdx]! + 1;
  }
}

/** Adds saved rows [from, to) of a block's records (addBlock). */
function placeRows(
  view: DataView,
  from: number,
  to: number,
  counts: { users: number; snapshots: number; devices: number },
  place: PlaceRow,
  rowsOf: (userIdx: number) => UserColumns,
  otherIds: readonly string[],
): void {
  for (let r = from; r < to; r += 1) {
    const o = r * RECORD_BYTES;
    const at = view.getFloat64(o, true);
    const userIdx = view.getUint32(o + 8, true);
    const s = view.getUint32(o + 12, true);
    const device = view.getUint32(o + 16, true);
    const flags = view.getUint32(o + 20, true);
    if (!refersToEntries(counts, userIdx, s, device)) throw new Error('saved index: a row refers to nothing');
    const row = place(userIdx, at, s, device, flags);
    const u = rowsOf(userIdx);
    const ref = view.getUint32(o + 24, true);
    if (flags & OTHER_ID) {
      const id = otherIds[ref];
      if (id === undefined) throw new Error('saved index: a row refers to nothing');
      u.setId(row, id, undefined);
    } else {
      u.ref[row] = ref;
    }
  }
}

/** Saved rows checked between pauses of `checkBlocks` in steps, and snapshot texts read. */
const RECORDS_PER_CHECK_STEP = 50_000;
const TEXTS_PER_CHECK_STEP = 1_000;

/**
 * Whether saved blocks are whole: each table entry new, each snapshot readable (the log's texts as
 * the saved index gave them back, for blocks of format 3), the snapshot columns of blocks of format 4
 * referring to their interners' entries, each row referring to entries. If so, the snapshots each
 * block defines. A generator that pauses after every slice of rows and of snapshot texts: a saved
 * index of millions of plays is checked after the server listens, in steps (LoadingIndex).
 */
export function* checkBlocks(
  blocks: SavedBlock[],
  logSnapshotTexts: SnapshotTextList | readonly string[],
): Generator<void, DefinedSnapshots[] | undefined> {
  const list: SnapshotTextList =
    'text' in logSnapshotTexts
      ? logSnapshotTexts
      : {
          count: logSnapshotTexts.length,
          text: (n) => logSnapshotTexts[n]!,
          slice: (from, to) => logSnapshotTexts.slice(from, to),
        };
  // Every text checked whole, even those no block reads: the log's tail was read with them. Read
  // only for blocks of format 3; the log makes them ready later otherwise (index-saving.ts).
  if (list.checkInSteps && !(yield* list.checkInSteps())) return undefined;
  if (list.prepareInSteps && blocks.some((b) => !b.table && b.logSnapshots > 0)) yield* list.prepareInSteps();
  yield;
  const users = new Set<string>();
  const devices = new Set<string>();
  const texts = new Set<string>();
  let snapshots = 0;
  const fresh = (seen: Set<string>, values: string[]) =>
    values.every((v) => !seen.has(v) && seen.add(v) !== undefined);
  const defined: DefinedSnapshots[] = [];
  for (const block of blocks) {
    if (!fresh(users, block.users) || !fresh(devices, block.devices)) return undefined;
    // A block numbers its snapshots as the log does, or lists their texts (an index not fed by a log).
    if (block.logSnapshots > 0 && block.snapshots.length > 0) return undefined;
    const fields: PlaySnapshot[] = [];
    let saved: SavedSnapshots | undefined;
    if (block.table) {
      saved = decodeSnapshots(block.table);
      if (!saved || saved.count !== block.logSnapshots || texts.size > 0) return undefined;
      if (!(yield* snapshotsFit(saved))) return undefined;
      if (snapshots + saved.count > list.count) return undefined;
      yield;
    } else if (block.logSnapshots > 0) {
      if (texts.size > 0 || snapshots + block.logSnapshots > list.count) return undefined;
      for (let from = snapshots; from < snapshots + block.logSnapshots; from += TEXTS_PER_CHECK_STEP) {
        yield;
        const slice = list.slice(from, Math.min(snapshots + block.logSnapshots, from + TEXTS_PER_CHECK_STEP));
        for (let i = 0; i < slice.length; i += 1) {
          if (i > 0 && i % ITEMS_PER_LOOK === 0 && timeIsUp()) yield;
          const snapshot = decodeSnapshotText(slice[i]!);
          if (!snapshot) return undefined;
          fields.push(snapshot);
        }
      }
    } else {
      for (let i = 0; i < block.snapshots.length; i += 1) {
        if (i > 0 && (i % TEXTS_PER_CHECK_STEP === 0 || (i % ITEMS_PER_LOOK === 0 && timeIsUp()))) yield;
        const snapshot = decodeSnapshotText(block.snapshots[i]!);
        if (!snapshot || !fresh(texts, [snapshotText(snapshot)])) return undefined;
        fields.push(snapshot);
      }
    }
    defined.push({ fromLog: block.logSnapshots > 0, fields, ...(saved && { saved }) });
    snapshots += saved?.count ?? fields.length;
    const view = new DataView(block.records.buffer, block.records.byteOffset, block.records.byteLength);
    const counts = { users: users.size, snapshots, devices: devices.size, otherIds: block.otherIds.length };
    // A piece at a time, as addBlock adds them.
    const fit = (from: number, to: number) => recordsFit(view, from, to, counts);
    if (!(yield* inPieces(block.count, 16 * ITEMS_PER_LOOK, RECORDS_PER_CHECK_STEP, fit))) return undefined;
  }
  return defined;
}

/** Whether saved records [from, to) each refer to entries of the tables (checkBlocks). */
function recordsFit(
  view: DataView,
  from: number,
  to: number,
  counts: { users: number; snapshots: number; devices: number; otherIds: number },
): boolean {
  for (let r = from; r < to; r += 1) {
    const o = r * RECORD_BYTES;
    if (
      !refersToEntries(
        counts,
        view.getUint32(o + 8, true),
        view.getUint32(o + 12, true),
        view.getUint32(o + 16, true),
      ) ||
      !Number.isFinite(view.getFloat64(o, true)) ||
      (view.getUint32(o + 20, true) & OTHER_ID && view.getUint32(o + 24, true) >= counts.otherIds)
    )
      return false;
  }
  return true;
}
