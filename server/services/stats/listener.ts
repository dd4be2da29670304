import { finish, inBackground } from '../steps.js';
import type { IndexTables } from './tables/index-tables.js';
import { capacityFor } from './columns/columns.js';
import { firstHeardInSteps } from './columns/first-heard.js';
import { logRows, type LogRows } from './columns/log-rows.js';
import { entryAt, type IdOfLine } from './columns/row-entry.js';
import { scanInSlices, type Slicing } from './columns/slices.js';
import { UserColumns } from './columns/user-columns.js';
import type { RankedList, UserTallies } from './sums/user-tallies.js';
import type { RowSpan, Selection } from './reads/selection.js';

/** Tries at settling in steps before a settle at once (Listener.settled). */
const SETTLE_TRIES = 3;

/** Rows of the play log as the index numbers them (StatsIndex.addRows), by batch row. */
export interface RowBatch {
  /** More rows to come, per row read so far (LoggedRows.toCome). */
  toCome: number;
  at: Float64Array;
  snap: Uint32Array;
  device: Uint32Array;
  flags: Uint8Array;
  line: Float64Array;
}

/** What every listener shares: the index's tables, its sums helper, and how rows are placed. */
export interface ListenerParts {
  tables: IndexTables;
  tallies: UserTallies;
  inPlaceLimit: number;
  farInsertBudget: number;
  slicing: Slicing;
}

/**
 * One listener's statistics: their rows (user-columns.ts) and everything kept of them, the sums per
 * snapshot, all-time and device tallies with their rankings, row marks, kept counts and first plays
 * per artist. Only this class changes them, so a new log is counted everywhere by one `add`, and
 * nothing else has to know in which order the parts are updated.
 */
export class Listener {
  readonly rows: UserColumns;

  constructor(
    userIdx: number,
    private readonly parts: ListenerParts,
  ) {
    this.rows = new UserColumns(userIdx);
  }

  /** Adds a log row and counts it in every sum kept of this listener; returns the row it filled. */
  add(at: number, s: number, device: number, flags: number): number {
    const { rows: u, parts } = this;
    this.changes += 1;
    const row = u.addRow(at, s, device, flags, parts.inPlaceLimit, parts.farInsertBudget);
    parts.tallies.added(u, row, s, device, flags, at);
    if (u.wantsRoom) {
      // Should it fail (no memory for the copies), the columns stay as they are: the add that next
      // needs room grows them at once, and its caller sees the failure.
      u.growAhead(parts.slicing).catch(() => undefined);
    }
    return row;
  }

  /**
   * Adds the rows `order[from, to)` of a batch (`at`, `snap`, `device`, `flags` and the log line
   * `line` per batch row), in that order, as `add` and `setLine` would one by one. Rows that land at
   * the end in time order, while only the sums per snapshot are kept (the log read at start), are
   * written and counted a run at a time, with room made for the batch at once.
   */
  addRows(batch: RowBatch, order: Int32Array, from: number, to: number): void {
    const u = this.rows;
    const { tallies } = this.parts;
    const { at, snap, device, flags, line } = batch;
    let i = from;
    if (u.sorted === u.n && tallies.onlySnapshotSums(u)) {
      let last = u.n > 0 ? u.at[u.n - 1]! : -Infinity;
      let end = from;
      let maxSnap = 0;
      let maxDevice = 0;
      for (; end < to; end += 1) {
        const r = order[end]!;
        if (at[r]! < last) break;
        last = at[r]!;
        maxSnap = Math.max(maxSnap, snap[r]!);
        maxDevice = Math.max(maxDevice, device[r]!);
      }
      if (end > from) {
        const first = u.n;
        // Room for the rows of the rest of the log too, as many more as the read ones promise: the
        // log read at start adds millions, and growing by a step each time would copy a heavy
        // listener's columns over and over. The settling after the read trims the spare.
        const rows = first + end - from;
        if (rows > u.at.length)
          u.reserve(Math.max(capacityFor(rows, u.at.length), Math.ceil(rows * (1 + batch.toCome))));
        u.widenFor(maxSnap, maxDevice);
        for (let k = from, row = first; k < end; k += 1, row += 1) {
          const r = order[k]!;
          u.at[row] = at[r]!;
          u.snap[row] = snap[r]!;
          u.device[row] = device[r]!;
          u.flags[row] = flags[r]!;
          u.setLine(row, line[r]!);
        }
        u.n += end - from;
        // One a row, as `add` counts the rest.
        this.changes += end - from;
        u.sorted = u.n;
        tallies.addedRun(u, first, u.n);
        i = end;
      }
    }
    for (; i < to; i += 1) {
      const r = order[i]!;
      u.setLine(this.add(at[r]!, snap[r]!, device[r]!, flags[r]!), line[r]!);
    }
  }

  /**
   * After a bulk load: drops spare room, sorts, and makes what every all-time read needs (the
   * all-time sums per kind) and the first play per artist (one pass over the rows; made at a year
   * in review's first request, it would hold the event loop).
   */
  settle(): void {
    finish(this.settleInSteps());
  }

  /**
   * `settle` in steps, for a load in the background: a pause after each part, and within the
   * all-time sums (a kind at a time) and the first plays (a slice of rows at a time), which cost
   * more than a turn's budget at a heavy listener's rows. What a row added or a recount meanwhile
   * makes stale is not kept (a later read or settle makes it again): true when all of it was.
   */
  *settleInSteps(): Generator<void, boolean> {
    const u = this.rows;
    const changes = this.changes;
    const unchanged = () => this.changes === changes;
    u.trim();
    u.ensureSorted();
    u.bySnapshot.fit();
    yield;
    yield* this.parts.tallies.allInSteps(u, unchanged);
    if (!unchanged()) return false;
    yield;
    yield* firstHeardInSteps(u, this.parts.tables.snapshots.artists, unchanged);
    if (!unchanged()) return false;
    this.unsettled = false;
    return true;
  }

  /**
   * Leaves `settle` for later (`settled`): a load in the background makes the index ready once the
   * rows are in, and settles each listener after, or when they are first read. Until then the
   * reads make what they need at once, as after `forgetArtistSums`.
   */
  settleLater(): void {
    this.unsettled = true;
  }

  /**
   * Settles a listener left for later in steps, a turn of the event loop between (settleInSteps),
   * once whoever asks: the background's sweep and a read share one settling. Rows that keep
   * arriving meanwhile (an import) would stale every try: the last try runs at once.
   */
  settled(
    /** The wait between steps when this call begins the settling (else the slicing's turn). */
    turn: () => Promise<void> = this.parts.slicing.nextTurn,
  ): Promise<void> {
    if (!this.unsettled) return Promise.resolve();
    // A read joining a settling begun in idle turns takes it over with its own, quicker turns.
    this.turn = turn === this.parts.slicing.nextTurn ? turn : (this.turn ?? turn);
    this.settling ??= this.settleTries().finally(() => {
      this.settling = undefined;
      this.turn = undefined;
    });
    return this.settling;
  }

  private async settleTries(): Promise<void> {
    const turn = () => (this.turn ?? this.parts.slicing.nextTurn)();
    for (let tries = 1; this.unsettled && tries < SETTLE_TRIES; tries += 1) {
      await inBackground(this.settleInSteps(), () => true, turn);
    }
    if (this.unsettled) this.settle();
  }

  /** The wait between the steps of the settling under way. */
  private turn: (() => Promise<void>) | undefined;

  /** `settleLater` was called and the settling has not ended since. */
  private unsettled = false;
  private settling: Promise<void> | undefined;
  /** Rows added and sums dropped: a settling in steps keeps nothing made before one. */
  private changes = 0;

  /**
   * Drops what was summed by artist (plays moved to other artists): all-time sums and rankings,
   * device sums and first plays, made again at their next read from the sums per snapshot.
   */
  forgetArtistSums(): void {
    const u = this.rows;
    this.changes += 1;
    u.all = undefined;
    u.rankings.clear();
    u.byDevice.clear();
    u.firstHeard = undefined;
  }

  /**
   * Makes ahead, a slice per turn, what a read of `sel` would otherwise make at once and that takes
   * long: a device's all-time sums (UserTallies.prepareDevice), the all-time rankings `ranks` (all
   * unless told; UserTallies.prepareRankings), or for a range the row marks (UserTallies.prepareMarks).
   */
  async prepare(sel: Selection, ranks?: readonly RankedList[]): Promise<void> {
    await this.settled();
    const { tallies, slicing } = this.parts;
    if (sel.whole) {
      if (sel.device !== undefined) await tallies.prepareDevice(this.rows, sel.device, slicing);
      else await tallies.prepareRankings(this.rows, slicing, ranks);
    } else if (sel.device === undefined) {
      await tallies.prepareMarks(this.rows, slicing);
    }
  }

  /** Makes ahead what any read of this listener without a device may make at once: rankings and row marks. */
  async prepareAll(): Promise<void> {
    await this.settled();
    const { tallies, slicing } = this.parts;
    await tallies.prepareRankings(this.rows, slicing);
    await tallies.prepareMarks(this.rows, slicing);
  }

  /**
   * Visits the rows `span()` gives (again at each start over) as spans of at most a slice of rows,
   * a turn of the event loop between (slices.ts): `start()` readies the sums `visit` adds to, and
   * `fits()` says whether they can take logs added since.
   */
  async scanSpans(
    span: () => RowSpan | undefined,
    start: () => void,
    visit: (span: RowSpan) => void,
    fits?: () => boolean,
  ) {
    let current: RowSpan | undefined;
    await scanInSlices(
      this.rows,
      () => {
        current = span();
        return current ? [current.lo, current.hi] : [0, 0];
      },
      start,
      (lo, hi) => visit({ ...current!, lo, hi }),
      this.parts.slicing,
      fits,
    );
  }

  /** The rows, sorted, and the snapshots they point at, for the history's row queries (log-rows.ts). */
  logRows(idOfLine: IdOfLine): LogRows {
    const u = this.rows;
    u.ensureSorted();
    const { tables } = this.parts;
    const { snapshots, tracks, artists } = tables;
    return logRows(u, snapshots, tracks.values, artists.values, (row) => entryAt(tables, u, row, idOfLine));
  }

  /** Room for `more` rows at once (an import about to add them), rather than growth step by step. */
  reserve(more: number): void {
    // With the spare rows a load leaves: without them, large columns filled to the estimate would
    // start growing ahead by an eighth just as the import ends, a copy of every column.
    this.rows.reserve(UserColumns.settledRoom(this.rows.n + more));
  }

  /**
   * Drops the room a reservation left, when it is more than one step of growth (what growing row by
   * row leaves) and more than a quarter of the rows. A trim copies every row column, so for a moment
   * they are held twice, and the allocator seldom gives the freed copy back to the system: the
   * process would keep more than the spare it dropped. A reservation an estimate overshot by a step
   * keeps its spare for the plays that follow.
   */
  dropSpare(): void {
    const u = this.rows;
    if (u.at.length > Math.max(capacityFor(u.n + 1, u.n), u.n + Math.ceil(u.n / 4))) u.trim();
  }
}
