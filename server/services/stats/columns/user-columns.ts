import { capacityFor, emptyLike, grown, widened, type Column, type IndexColumn } from './columns.js';
import type { KeptCounts } from './kept-counts.js';
import type { Ranking } from '../sums/ranking.js';
import type { RowMarks } from './row-marks.js';
import type { Slicing } from './slices.js';
import { Tally, type Tallies } from '../sums/tally.js';

/**
 * A log with a time in the past is inserted in place when it lands this close to the end (the usual
 * case: a client that was offline for a while). Further back, it waits in an unsorted tail that the
 * next read merges in one pass, so loading a log written out of order stays O(n log n).
 */
export const IN_PLACE_LIMIT = 4096;
/** How many logs far in the past may be shifted into place between two reads of a user. */
export const FAR_INSERT_BUDGET = 16;

/** Bits of the `flags` column. */
export const SKIP = 1;
export const EXPLICIT = 2;
/** The log id is kept in memory: `ref` indexes `otherIds` (a log not read from the play log). */
export const OTHER_ID = 4;
/**
 * Otherwise the id is in the play log, on the line starting at byte `ref` + 2^32 × (flags >> 3):
 * the five high bits of flags reach 128 GiB of log.
 */
const LINE_HIGH_SHIFT = 3;
const TWO_32 = 2 ** 32;
/** The flag bits that are not part of a line's position. */
export const FLAG_BITS = (1 << LINE_HIGH_SHIFT) - 1;
/** The flag bits of a line's position (`ref` holds the rest). */
export const lineFlags = (line: number): number => Math.floor(line / TWO_32) << LINE_HIGH_SHIFT;
/** Where a row's line starts in the log, from its `ref` and flags (a row without OTHER_ID). */
export const lineOf = (ref: number, flags: number): number => ref + (flags >> LINE_HIGH_SHIFT) * TWO_32;

/** The per-row columns of UserColumns (one element per log). */
const ROW_COLUMNS = ['at', 'snap', 'device', 'flags', 'ref'] as const;

/**
 * Columns of at least this many rows grow ahead of need, a slice per turn (`growAhead`); smaller
 * ones grow when full, a copy of under a megabyte.
 */
export const GROW_AHEAD_FROM = 1 << 16;
/**
 * Free rows a trim leaves in columns that grow ahead, so the logs that follow a load land in them
 * while the columns grow; growing starts at the first of them used.
 */
export const SPARE_ROWS = 1024;

/** Columns being grown ahead of need: copies of the row columns, made a slice of rows at a time. */
class Growth {
  /** Rows [0, copied) are in `to` as they are in the columns. */
  copied = 0;
  constructor(
    /** The row columns being copied, in ROW_COLUMNS order. If one is replaced (widened, trimmed), the growth is dropped. */
    readonly from: readonly Column[],
    readonly to: readonly Column[],
  ) {}
}

/**
 * One user's logs as parallel columns sorted by time (a typed array per field), so a date range is a
 * binary search and a scan over numbers. A row is 16 bytes (mostly): its time, its snapshot (snapshots.ts:
 * track, album, artists, genres, duration and names, shared by most logs of a track), its device,
 * its type, and where its log id is. The 16-byte random ids stay on disk, in the play log's lines,
 * and are read back for the few rows a read returns (recent plays, a history page): memory per log
 * that a household's NAS does not spend.
 */
export class UserColumns {
  n = 0;
  /** Rows [0, sorted) are in time order; rows after it are an unsorted tail awaiting a merge. */
  sorted = 0;
  at = new Float64Array(0);
  /** 16 bits while the snapshots fit in them (a library of tens of thousands of tracks does), then 32. */
  snap: IndexColumn = new Uint16Array(0);
  /**
   * Device name index + 1; 0 for none. A byte while the household has fewer than 255 device names
   * (most do), widened to 16 and then 32 bits when it has more.
   */
  device: IndexColumn = new Uint8Array(0);
  flags = new Uint8Array(0);
  /** Where the log's id is: the low 32 bits of its line's position, or (OTHER_ID) an index of `otherIds`. */
  ref = new Uint32Array(0);
  /** Ids of logs that did not come from the play log (an index built in memory, in tests). */
  otherIds: string[] = [];
  /**
   * Sums per snapshot of every log, kept current: the base of all-time and near-all-time reads.
   * Sparse: a listener plays a fraction of a collector's library, and this is kept per listener.
   */
  readonly bySnapshot = new Tally(false, true);
  /** All-time plays and listening time. */
  plays = 0;
  listeningMs = 0;
  /** All-time sums per kind (folded from `bySnapshot` at the first read, then kept current). */
  all: Tallies | undefined;
  /** All-time rankings per list, made at their first read and then kept current (ranking.ts). */
  readonly rankings = new Map<string, Ranking>();
  /**
   * All-time sums per device key, made on the first full-range read of that device, then kept
   * current; the least recently read are dropped past a few (user-tallies.ts).
   */
  readonly byDevice = new Map<number, Tallies>();
  /** Logs shifted in far from the end since the last read (see `insertRow`). */
  farInserts = 0;
  /** Counts changes that move rows (a log shifted in, a tail merged): a scan in slices starts over. */
  moves = 0;
  /**
   * Per artist (by the index's number), the time of this user's first play of them (Infinity for
   * none): made at the first read that needs it, then kept current on every add (first-heard.ts).
   */
  firstHeard: Float64Array | undefined;
  /** All-time counts for the household page's reads (kept-counts.ts). */
  readonly kept: KeptCounts = {};
  /** A heavy listener's sums every so many rows, for ranges reaching to the end (row-marks.ts). */
  marks: RowMarks | undefined;
  /** A growth ahead is due or under way (`growAhead`). */
  private growing = false;
  /** The copies a growth ahead is making, once it has started. */
  private growth: Growth | undefined;

  constructor(readonly userIdx: number) {}

  reserve(rows: number): void {
    if (rows <= this.at.length) return;
    // Out of free rows before a growth ahead is done: its copy is finished at once.
    if (this.growth) this.copyStep(Infinity);
    if (rows <= this.at.length) return;
    const cap = capacityFor(rows, this.at.length);
    const columns = this.rowColumns();
    for (const key of ROW_COLUMNS) columns[key] = grown(columns[key], cap);
  }

  /** Whether the columns are large and their spare rows in use, with no growth ahead yet. */
  get wantsRoom(): boolean {
    return !this.growing && this.at.length >= GROW_AHEAD_FROM && this.at.length - this.n < SPARE_ROWS;
  }

  /**
   * Grows the columns by one step (an eighth) before they are full, a slice of rows copied a turn:
   * a heavy listener's rows copied at once would hold the loop. Logs keep landing in the free rows
   * meanwhile; a row written behind the copy (`insertRow`) is copied again. Should the free rows
   * run out first, `reserve` finishes the copy.
   */
  async growAhead({ rowsPerTurn, nextTurn }: Slicing): Promise<void> {
    this.growing = true;
    try {
      await nextTurn();
      // A bulk load adds rows then trims, leaving spare rows: nothing to do then.
      if (this.at.length - this.n >= SPARE_ROWS) return;
      const from = ROW_COLUMNS.map((key) => this[key]);
      const cap = capacityFor(this.at.length + 1, this.at.length);
      const to = from.map((column) => emptyLike(column, cap));
      this.growth = new Growth(from, to);
      while (!this.copyStep(rowsPerTurn)) await nextTurn();
    } finally {
      this.growing = false;
      this.growth = undefined;
    }
  }

  /**
   * Copies up to `rows` more rows into the growing columns, and puts them in place once every row is
   * copied. True when the growth is over: done, or dropped because a column was replaced meanwhile
   * (the next add starts another).
   */
  private copyStep(rows: number): boolean {
    const growth = this.growth;
    if (!growth) return true; // finished by `reserve`
    const columns = this.rowColumns();
    if (ROW_COLUMNS.some((key, i) => columns[key] !== growth.from[i])) {
      this.growth = undefined;
      return true;
    }
    const { copied } = growth;
    const end = Math.min(this.n, copied + rows);
    growth.from.forEach((column, i) => growth.to[i]!.set(column.subarray(copied, end), copied));
    growth.copied = end;
    if (end < this.n) return false;
    ROW_COLUMNS.forEach((key, i) => (columns[key] = growth.to[i]!));
    this.growth = undefined;
    return true;
  }

  /** Room for a row of snapshot `s` and device `device` (see the two columns). */
  widenFor(s: number, device: number): void {
    this.snap = widened(this.snap, s);
    this.device = widened(this.device, device);
  }

  /**
   * Drops spare capacity (after a bulk load, when no more rows are coming soon), but for
   * `SPARE_ROWS` in columns that grow ahead.
   */
  trim(): void {
    const keep = UserColumns.settledRoom(this.n);
    if (this.at.length <= keep) return;
    const columns = this.rowColumns();
    for (const key of ROW_COLUMNS) columns[key] = columns[key].slice(0, keep);
  }

  /** The room `trim` leaves for `rows` rows: the spare rows included (reserved so by a load). */
  static settledRoom(rows: number): number {
    return rows >= GROW_AHEAD_FROM ? rows + SPARE_ROWS : rows;
  }

  /** Adds a log's row, making room first, and fills its columns; returns the row (see insertRow). */
  addRow(
    at: number,
    s: number,
    device: number,
    flags: number,
    inPlaceLimit: number,
    farInsertBudget: number,
  ): number {
    this.reserve(this.n + 1);
    this.widenFor(s, device);
    const row = this.insertRow(at, inPlaceLimit, farInsertBudget);
    this.at[row] = at;
    this.snap[row] = s;
    this.device[row] = device;
    this.flags[row] = flags;
    return row;
  }

  /**
   * Adds a row for a log at time `at` (room reserved first) and returns it: in place when the rows
   * are sorted and it lands near the end, else at the end, in the unsorted tail. Far back, shifting
   * every later row is still cheaper than merging at the next read, unless many arrive between two
   * reads (loading a log written out of order): those go to the tail.
   */
  insertRow(at: number, inPlaceLimit: number, farInsertBudget: number): number {
    let row = this.n;
    if (this.sorted === this.n) {
      const pos = this.n > 0 && at < this.at[this.n - 1]! ? this.upperBound(at) : this.n;
      const near = this.n - pos <= inPlaceLimit;
      if (near || this.farInserts < farInsertBudget) {
        if (!near) this.farInserts += 1;
        if (pos < this.n) this.shift(pos);
        row = pos;
        this.sorted += 1;
      }
    }
    this.n += 1;
    // Rows from `row` on change (they moved, or it is new): those a growth copied must be copied again.
    if (this.growth && row < this.growth.copied) this.growth.copied = row;
    return row;
  }

  /** This object seen as its row columns by name (each key reads and writes its own column). */
  private rowColumns(): Record<(typeof ROW_COLUMNS)[number], Column> {
    return this;
  }

  /** Opens a gap at row `pos` by moving rows [pos, n) one place on. */
  private shift(pos: number): void {
    const { n } = this;
    this.moves += 1;
    for (const key of ROW_COLUMNS) this[key].copyWithin(pos + 1, pos, n);
  }

  /** First row with at ≥ value (within the sorted rows). */
  lowerBound(value: number): number {
    return this.firstRowAfter(value, false);
  }

  /** First row with at > value (within the sorted rows). */
  upperBound(value: number): number {
    return this.firstRowAfter(value, true);
  }

  /** The first sorted row past every row at `value` when `pastEqual`, else past every row before it. */
  private firstRowAfter(value: number, pastEqual: boolean): number {
    let lo = 0;
    let hi = this.sorted;
    const at = this.at;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = at[mid]!;
      if (t < value || (pastEqual && t === value)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Merges the unsorted tail into the sorted rows, in place; equal times keep the order they were
   * added in. Each tail row's place among the sorted rows is found by a search from the previous
   * one's; then, per column, the sorted rows move up by the number of tail rows before them, a run at
   * a time from the end (a memory move), and the tail rows land between: after a history import of
   * older listens, moving runs costs far less than merging into new columns row by row.
   */
  ensureSorted(): void {
    this.farInserts = 0;
    const { n, sorted } = this;
    if (sorted === n) return;
    const at = this.at;
    const tail = tailInOrder(at, sorted, n);
    // Per tail row in time order, how many sorted rows come before it (those at or before its time):
    // a search from the previous one's, by doubling steps then halving (the next is usually near).
    const before = new Int32Array(tail.length);
    let lo = 0;
    for (let j = 0; j < tail.length; j += 1) {
      const t = at[tail[j]!]!;
      let step = 1;
      while (lo + step <= sorted && at[lo + step - 1]! <= t) {
        lo += step;
        step *= 2;
      }
      let hi = Math.min(lo + step, sorted);
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (at[mid]! <= t) lo = mid + 1;
        else hi = mid;
      }
      before[j] = lo;
    }
    for (const key of ROW_COLUMNS) mergeTail(this[key], sorted, tail, before);
    this.sorted = n;
    this.moves += 1;
    // Rows from the first tail row's place on moved: a growth copies them again, the marks are stale.
    if (this.growth) this.growth.copied = Math.min(this.growth.copied, before[0]!);
    this.marks = undefined;
  }

  /** Records where row `row`'s log id is: at byte `line` of the play log, else kept here in memory. */
  setId(row: number, id: string, line: number | undefined): void {
    if (line === undefined) {
      this.flags[row] = (this.flags[row]! & FLAG_BITS) | OTHER_ID;
      this.ref[row] = this.otherIds.length;
      this.otherIds.push(id);
    } else {
      this.setLine(row, line);
    }
  }

  /** Records that row `row`'s log id is on the play log's line starting at byte `line`. */
  setLine(row: number, line: number): void {
    this.flags[row] = (this.flags[row]! & (FLAG_BITS & ~OTHER_ID)) | lineFlags(line);
    this.ref[row] = line % TWO_32;
  }

  /** The position of row `row`'s line in the play log; undefined when its id is kept in memory. */
  lineOf(row: number): number | undefined {
    const flags = this.flags[row]!;
    return flags & OTHER_ID ? undefined : lineOf(this.ref[row]!, flags);
  }

  /** Row `row`'s log id, read from its line with `idOfLine` unless it is kept in memory. */
  idOf(row: number, idOfLine: (line: number) => string): string {
    const line = this.lineOf(row);
    return line === undefined ? this.otherIds[this.ref[row]!]! : idOfLine(line);
  }

  /** Rows [lo, hi) with from ≤ at ≤ to. */
  range(from: number | undefined, to: number | undefined): [number, number] {
    const lo = from === undefined ? 0 : this.lowerBound(from);
    const hi = to === undefined ? this.n : this.upperBound(to);
    return [lo, Math.max(lo, hi)];
  }
}

/**
 * The tail rows [sorted, n) in time order, equal times in the order they were added. A history
 * import adds its listens newest first (a ListenBrainz export's order) or oldest first: one pass
 * sees that and reverses or keeps them, far cheaper than a sort with a comparator.
 */
function tailInOrder(at: Float64Array, sorted: number, n: number): Int32Array {
  let ascending = true;
  let descending = true;
  for (let row = sorted + 1; row < n && (ascending || descending); row += 1) {
    if (at[row]! < at[row - 1]!) ascending = false;
    // Equal times must keep their order, which a reversal would not.
    if (at[row]! >= at[row - 1]!) descending = false;
  }
  const tail = new Int32Array(n - sorted);
  for (let i = 0; i < tail.length; i += 1) tail[i] = descending ? n - 1 - i : sorted + i;
  if (!ascending && !descending) tail.sort((a, b) => at[a]! - at[b]! || a - b);
  return tail;
}

/**
 * Merges rows `tail` of `column` (in merged order) into its sorted rows [0, sorted): `before[j]`
 * sorted rows precede tail row j. From the last tail row back, the sorted rows after each move up
 * past the tail rows before them (copyWithin for long runs, a loop for short ones) and it lands.
 */
function mergeTail(column: Column, sorted: number, tail: Int32Array, before: Int32Array): void {
  const values = emptyLike(column, tail.length);
  for (let j = 0; j < tail.length; j += 1) values[j] = column[tail[j]!]!;
  let end = sorted;
  for (let j = tail.length - 1; j >= 0; j -= 1) {
    const start = before[j]!;
    const by = j + 1;
    if (end - start > 32) {
      column.copyWithin(start + by, start, end);
    } else {
      for (let row = end - 1; row >= start; row -= 1) column[row + by] = column[row]!;
    }
    column[start + j] = values[j]!;
    end = start;
  }
}
