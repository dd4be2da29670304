import { performance } from 'node:perf_hooks';
import {
  ROW_EXPLICIT_AT,
  ROW_SKIP,
  type LoggedNames,
  type LoggedRows,
  type PlayLogEntry,
} from '../../domain/play.js';
import {
  addBlock,
  checkBlocks,
  savedTables,
  savedWhole,
  tableCounts,
  type PlaceRow,
  type PlaceRows,
} from './persistence/index-persistence.js';
import { decodeSavedIndex, encodeBlock, SavedRecords } from './persistence/saved-index.js';
import { snapshotText } from '../../store/play-log-codec.js';
import type { ReadWholeLog } from './persistence/index-saving.js';
import type { CountedAs, TrackNow } from './tables/snapshots.js';
import { countedOtherwise } from './tables/counted-otherwise.js';
import type { LoggedSnapshot } from './tables/latest-logs.js';
import type { SnapshotTextList } from '../../store/snapshot-texts.js';
import type { IdOfLine } from './columns/row-entry.js';
import { EXPLICIT, lineFlags, SKIP } from './columns/user-columns.js';
import { IndexReads } from './index-reads.js';
import { Listener } from './listener.js';
import { inBackground } from '../steps.js';
import { numberedRows, toListeners } from './columns/rows-by-user.js';

/**
 * Saved rows added between pauses of a load in steps (each costs far more than a scanned row), and
 * snapshots counted anew for the library: small, as the loader runs as many steps as fit its turn.
 */
const ROWS_PER_LOAD_STEP = 2_500;
const SNAPSHOTS_PER_LOAD_STEP = 250;
const STRINGS_PER_LOAD_STEP = 5_000;

/**
 * Every play log entry, indexed for the statistics reads (docs/API.md, Statistics): built from the
 * log at start and kept current by `add`. Strings are interned to small integers; what a track was
 * when played is a snapshot numbered once (snapshots.ts); each user's logs are time-sorted typed
 * columns of 16 bytes a log (user-columns.ts). A ranged read is a binary search, a scan of the range
 * into sums per snapshot, and a fold of those into tracks, albums, artists or genres (scans.ts).
 * All-time reads use sums and rankings kept current on every add.
 */
export class StatsIndex extends IndexReads {
  private total = 0;
  /** What was added since the last save, in the saved form (saved-index.ts). */
  private unsaved = new SavedRecords();

  get size(): number {
    return this.total;
  }

  /**
   * What was added since the last call (or since `load`), to append to the saved index: the saved
   * index only grows, so a save writes just this (saved-play-index.ts).
   */
  takeUnsaved(): Uint8Array[] {
    const block = this.unsaved.block(savedTables(this.tables, this.tables.snapshots.numberedByLog));
    this.unsaved = new SavedRecords(tableCounts(this.tables));
    return encodeBlock(block);
  }

  /**
   * Where the ids of rows added with a line position are read: the play log, once it is open (its
   * lines are read before it is, as the index is built; no id is needed then).
   */
  readIdsFrom(log: { idAt: IdOfLine }): void {
    this.idOfLine = (line) => log.idAt(line);
  }

  /** The whole index as one saved block, its snapshots as texts (it loads without a log). */
  save(): Uint8Array {
    return savedWhole(this.tables, this.allRows());
  }

  /**
   * Adds saved blocks to this empty index. False when the bytes are not an index this code saved:
   * then the caller rebuilds it from the log (in a new index). An index saved by an older Melon
   * (format 1) loads too. `logSnapshots`: the texts of the play log's snapshots, for blocks that
   * number snapshots as the log does.
   */
  load(bytes: Uint8Array | Uint8Array[], logSnapshots: SnapshotTextList | readonly string[] = []): boolean {
    const steps = this.loadInSteps(bytes, logSnapshots);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `load` in steps: a generator that reads the saved blocks' framing in its first step (false at
   * once for bytes that are no saved index), then checks them whole and adds their rows, pausing
   * after every slice of rows and after settling each listener, so the load can run in the
   * background while the server answers (LoadingIndex). A check that fails ends it with false, the
   * index still empty. Nothing may read or add to the index until it ends.
   */
  *loadInSteps(
    bytes: Uint8Array | Uint8Array[],
    logSnapshots: SnapshotTextList | readonly string[] = [],
    /** Called once the saved rows are in, before they are counted and settled: more rows may come. */
    afterRows?: () => void,
    /**
     * Each listener left to settle after the load (Listener.settleLater, `settleLeft`): a read
     * waits only for its own listener's settling, not for every listener's.
     */
    settleLater = false,
  ): Generator<void, boolean> {
    if (this.total > 0 || this.tables.snapshots.count > 0) return false;
    const saved = decodeSavedIndex(Array.isArray(bytes) ? bytes : [bytes]);
    if (!saved) return false;
    if (saved.kind === 'entries') {
      for (const entry of saved.entries) this.add(entry);
    } else {
      yield;
      // Checked whole first: a load that fails must leave the index empty, for the rebuild.
      const defined = yield* checkBlocks(saved.blocks, logSnapshots);
      if (!defined) return false;
      const rowsOf = (userIdx: number) => this.listener(userIdx).rows;
      const rowsPerStep = Math.min(this.parts.slicing.rowsPerTurn, ROWS_PER_LOAD_STEP);
      try {
        for (const [i, block] of saved.blocks.entries())
          yield* addBlock(this.tables, rowsOf, this.place, this.placeRun, block, defined[i]!, rowsPerStep);
      } catch {
        // What the checks could not tell (a block out of step with the tables the blocks before it
        // made) is damage too: the index is emptied for the rebuild from the log.
        return this.dropLoad();
      }
    }
    this.unsaved = new SavedRecords(tableCounts(this.tables));
    afterRows?.();
    // Snapshots defined by the load count as the library says, as countAsInLibrary would make them,
    // before any sum of them is made.
    // Loaded before the library is read, as the counting saved with the index says instead.
    const { snapshots } = this.tables;
    const counting = this.savedCounting;
    this.savedCounting = undefined;
    // Counting anew interns what the library or the saved counting names: every saved string is
    // looked up first. A string saved twice is damage the checks could not tell (two entries for one
    // id). A start that answers before the library is read (a saved counting) has its first reads
    // find what they name by its id: the ids' look-ups are made here in steps, not at once in the
    // first read (every id of a collector's library), and an id twice among them drops the load as
    // above; the snapshots' names, which no read looks up, are told once the load is done
    // (`indexInSteps`).
    if (counting ? counting.length > 0 : snapshots.countsAsInLibrary) {
      if (!(yield* this.tables.indexInSteps(STRINGS_PER_LOAD_STEP))) return this.dropLoad();
    } else if (counting && !(yield* this.tables.indexIdsInSteps(STRINGS_PER_LOAD_STEP))) {
      return this.dropLoad();
    }
    if (counting) {
      yield* snapshots.countAsSavedInSteps(counting, SNAPSHOTS_PER_LOAD_STEP);
    } else if (snapshots.countsAsInLibrary) {
      if (yield* snapshots.recountInSteps(undefined, SNAPSHOTS_PER_LOAD_STEP)) this.forgetArtistSums();
    }
    if (settleLater) for (const l of this.listeners) l?.settleLater();
    else yield* this.settleInSteps();
    // Before the library is read, the reads name every track by its plays (LatestLogs).
    if (counting) yield* this.latest.prepareInSteps(SNAPSHOTS_PER_LOAD_STEP);
    return true;
  }

  /** Empties the index after a load that failed part way (`loadInSteps` then ends with false). */
  private dropLoad(): false {
    this.clear();
    this.total = 0;
    this.unsaved = new SavedRecords();
    this.known = undefined;
    this.savedCounting = undefined;
    return false;
  }

  /**
   * The next `load` counts the saved snapshots as `moved` says (counted-otherwise.ts, saved
   * with the index for the library that is on disk), the rest as logged, until the library is read
   * and counted anew (`countAsInLibrary`); undefined: not (a load that did not take it).
   */
  countAsSaved(moved: readonly CountedAs[] | undefined): void {
    this.savedCounting = moved;
  }

  private savedCounting: readonly CountedAs[] | undefined;

  /** The ids of every track, album and artist the plays name or count for. */
  namedIds(): { tracks: readonly string[]; albums: readonly string[]; artists: readonly string[] } {
    const { tracks, albums, artists } = this.tables;
    return { tracks: tracks.values, albums: albums.values, artists: artists.values };
  }

  /** Every snapshot as logged, in number order: each name a play of its track was logged with. */
  *loggedSnapshots(): Generator<LoggedSnapshot, void> {
    const table = this.tables.snapshots;
    for (let s = 0; s < table.count; s += 1) yield table.fields(s);
  }

  /** The snapshots counted otherwise than logged (counted-otherwise.ts). */
  countedOtherwise(): CountedAs[] {
    return countedOtherwise(this.tables);
  }

  /**
   * Puts the strings a load added in their look-ups, in steps (LoadingIndex runs it once the load
   * is done); a look-up before that does it at once.
   */
  indexInSteps(): Generator<void, boolean> {
    return this.tables.indexInSteps(STRINGS_PER_LOAD_STEP);
  }

  /** Calls `then` now: `load` is done when it returns (PlayIndex.whenLoaded). */
  whenLoaded(then: () => void): void {
    then();
  }

  /**
   * The canonical text of the play log's snapshot `n`, made again from the tables; undefined when
   * they do not number snapshots as the log does, or do not hold it yet.
   */
  logSnapshotText(n: number): string | undefined {
    const table = this.tables.snapshots;
    if (!table.numberedByLog || n >= table.count) return undefined;
    return snapshotText(table.fields(n));
  }

  /** Reads the whole log into this empty index (PlayIndex.rebuild). */
  async rebuild(readLog: ReadWholeLog): Promise<void> {
    await readLog(
      (entry, snapshot, line) => this.add(entry, snapshot, line),
      (rows, names) => this.addRows(rows, names),
    );
    this.settle();
  }

  /**
   * After a bulk load (the log read at start): settles every listener (Listener.settle). Sums per
   * device and rankings are made ahead of their first read (StatsIndex.prepare): made here for every
   * user, they would hold memory nobody may read and lengthen every start.
   */
  settle(): void {
    for (const l of this.listeners) l?.settle();
  }

  /**
   * Settles, one after the other in steps, the listeners a load left for later (Listener.settled);
   * a read of one meanwhile settles it first.
   */
  async settleLeft(turn?: () => Promise<void>): Promise<void> {
    for (const l of this.listeners) await l?.settled(turn);
  }

  /** `settle`, pausing after each listener. */
  *settleInSteps(): Generator<void, void> {
    for (const l of this.listeners) {
      if (!l) continue;
      yield* l.settleInSteps();
      yield;
    }
  }

  /**
   * Counts plays for the artists and album their tracks have in the library now (`current`;
   * SnapshotTable.recount), and again after each change of the library. When a play moves, the sums
   * made from what it counted for before are dropped, to be made again at their next read from the sums per snapshot
   * (which do not change): all-time sums and rankings, per-device sums, first plays per artist and
   * the names of artists gone from the library.
   */
  countAsInLibrary(current: TrackNow | undefined): void {
    if (this.tables.snapshots.recount(current)) this.forgetArtistSums();
  }

  /**
   * `countAsInLibrary` in steps of STEP_MS, `turn` before each (the library read after the server
   * listens: every snapshot is looked up in it, a long piece of work at a collector's size). Reads
   * meanwhile count as before; a count begun meanwhile takes over.
   */
  async countAsInLibraryInSteps(
    current: TrackNow | undefined,
    turn: () => Promise<void>,
    now: () => number = () => performance.now(),
  ): Promise<void> {
    const steps = this.tables.snapshots.recountInSteps(current, SNAPSHOTS_PER_LOAD_STEP);
    if (await inBackground(steps, () => true, turn, now)) this.forgetArtistSums();
  }

  private forgetArtistSums(): void {
    for (const l of this.listeners) l?.forgetArtistSums();
    this.latest.forgetNames();
  }

  /**
   * `logSnapshot`: the entry's snapshot number in the play log; `line`: where its line starts in the
   * log, so its id need not be kept in memory (without one, it is).
   */
  add(entry: PlayLogEntry, logSnapshot?: number, line?: number): void {
    const { users, snapshots, devices } = this.tables;
    const userIdx = users.intern(entry.userId);
    const s = snapshots.intern(entry, logSnapshot);
    const device = entry.device === null ? 0 : devices.intern(entry.device) + 1;
    const flags = (entry.type === 'skip' ? SKIP : 0) | (entry.explicitAt ? EXPLICIT : 0);
    const row = this.place(userIdx, entry.at, s, device, flags);
    const u = this.listeners[userIdx]!.rows;
    u.setId(row, entry.id, line);
    this.unsaved.addRow(u, row);
  }

  /**
   * Adds the play log's rows as `add` adds their entries (with their snapshot numbers and lines), in
   * order, without an entry object per row: the log read at start. Names and snapshots are numbered
   * in log order, as `add` would; then each listener takes its rows in one call (Listener.addRows).
   */
  addRows(rows: LoggedRows, names: LoggedNames): void {
    const { users, snapshots, devices } = this.tables;
    const known = this.namesOf(names);
    const count = rows.count;
    if (this.scratch.userOf.length < count) this.scratch = numberedRows(count);
    const { userOf, snap, device, flags, order } = this.scratch;
    const { at, line } = rows;
    for (let i = 0; i < count; i += 1) {
      const u = rows.user[i]!;
      userOf[i] = known.users[u] ??= users.intern(names.users[u]!);
      const logSnapshot = rows.snapshot[i]!;
      // As `intern` finds a snapshot numbered by the log, without asking the log for it.
      snap[i] =
        snapshots.numberedByLog && logSnapshot < snapshots.count
          ? logSnapshot
          : snapshots.intern(names.snapshot(logSnapshot)!, logSnapshot);
      const d = rows.device[i]!;
      device[i] = d === 0 ? 0 : (known.devices[d - 1] ??= devices.intern(names.devices[d - 1]!) + 1);
      const k = rows.kind[i]!;
      flags[i] = (k & ROW_SKIP ? SKIP : 0) | (k & ROW_EXPLICIT_AT ? EXPLICIT : 0) | lineFlags(line[i]!);
    }
    const batch = { at, snap, device, flags, line, toCome: rows.toCome };
    toListeners(batch, userOf, count, users.count, order, (userIdx) => this.listener(userIdx));
    const records = this.unsaved.size + count;
    this.unsaved.reserve(records, Math.ceil(records * (1 + rows.toCome)));
    for (let i = 0; i < count; i += 1) {
      this.latest.note(snap[i]!, userOf[i]!, at[i]!);
      this.unsaved.addRecord(at[i]!, userOf[i]!, snap[i]!, device[i]!, flags[i]!, line[i]! % 2 ** 32);
    }
    this.total += count;
  }

  /** `addRows`'s columns, reused from batch to batch. */
  private scratch = numberedRows(0);

  /** Per number of the log's user ids and device names, ours (device: index + 1), once known. */
  private known: { names: LoggedNames; users: number[]; devices: number[] } | undefined;

  private namesOf(names: LoggedNames): { users: number[]; devices: number[] } {
    if (this.known?.names !== names) this.known = { names, users: [], devices: [] };
    return this.known;
  }

  /**
   * Adds a log row to its listener (Listener.add, which counts it in all kept of them) and to the
   * latest logs; returns the row it filled.
   * A bound field rather than a method, so saved blocks (index-persistence.ts) call it directly.
   */
  private readonly place: PlaceRow = (userIdx, at, s, device, flags) => {
    const row = this.listener(userIdx).add(at, s, device, flags);
    this.latest.note(s, userIdx, at);
    this.total += 1;
    return row;
  };

  /** Adds a saved block's run of rows as `place` adds each (addBlock). */
  private readonly placeRun: PlaceRows = (run) => {
    const { count, userOf, snap, at } = run;
    if (this.runOrder.length < count) this.runOrder = new Int32Array(count);
    const users = this.tables.users.count;
    toListeners(run, userOf, count, users, this.runOrder, (userIdx) => this.listener(userIdx));
    for (let i = 0; i < count; i += 1) this.latest.note(snap[i]!, userOf[i]!, at[i]!);
    this.total += count;
  };

  private runOrder = new Int32Array(0);

  /** A user's listener, made at their first log. */
  private listener(userIdx: number): Listener {
    return (this.listeners[userIdx] ??= new Listener(userIdx, this.parts));
  }

  /**
   * Room in a user's columns for `rows` more rows at once (an import about to add them): else they
   * grow by an eighth again and again, each old copy allocated until a full collection.
   */
  reserveRows(userId: string, rows: number): void {
    this.listenerOf(userId)?.reserve(rows);
  }

  /** Drops the room a reservation left unused when it is large (Listener.dropSpare). */
  dropSpareRows(userId: string): void {
    this.listenerOf(userId)?.dropSpare();
  }
}
