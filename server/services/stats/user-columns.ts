import { capacityFor, grown, type Column } from './columns.js';
import { ID_BYTES } from './log-ids.js';
import type { Ranking } from './ranking.js';
import { Tally, type Tallies } from './tally.js';

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
/** The log id is not packed in `idBytes`: its first 4 bytes index `otherIds`. */
export const OTHER_ID = 4;

/** The per-row columns of UserColumns (one element per log), besides the packed ids. */
const ROW_COLUMNS = ['at', 'snap', 'device', 'flags'] as const;

/**
 * One user's logs as parallel columns sorted by time (a typed array per field), so a date range is a
 * binary search and a scan over numbers. A row is 31 bytes: its time, its snapshot (snapshots.ts:
 * track, album, artists, genres, duration and names, shared by most logs of a track), its device,
 * its type and its packed log id.
 */
export class UserColumns {
  n = 0;
  /** Rows [0, sorted) are in time order; rows after it are an unsorted tail awaiting a merge. */
  sorted = 0;
  at = new Float64Array(0);
  snap = new Uint32Array(0);
  /** Device name index + 1; 0 for none. Widened to 32 bits past 65,535 device names. */
  device: Uint16Array | Uint32Array = new Uint16Array(0);
  flags = new Uint8Array(0);
  /** Log ids packed to 16 bytes each; ids of another shape are kept in `otherIds` (flag OTHER_ID). */
  idBytes = new Uint8Array(0);
  otherIds: string[] = [];
  /** Sums per snapshot of every log, kept current: the base of all-time and near-all-time reads. */
  readonly bySnapshot = new Tally();
  /** All-time plays and listening time. */
  plays = 0;
  listeningMs = 0;
  /** All-time sums per kind (folded from `bySnapshot` at the first read, then kept current). */
  all: Tallies | undefined;
  /** All-time rankings per list, made at their first read and then kept current (ranking.ts). */
  readonly rankings = new Map<string, Ranking>();
  /** All-time sums per device key, made on the first full-range read of that device, then kept current. */
  readonly byDevice = new Map<number, Tallies>();
  /** Logs shifted in far from the end since the last read (see `insertRow`). */
  farInserts = 0;
  /**
   * Per artist (by the index's number), the time of this user's first play of them (Infinity for
   * none): made at the first read that needs it, then kept current on every add (first-heard.ts).
   */
  firstHeard: Float64Array | undefined;

  constructor(readonly userIdx: number) {}

  reserve(rows: number): void {
    if (rows > this.at.length) {
      const cap = capacityFor(rows, this.at.length);
      const columns = this.rowColumns();
      for (const key of ROW_COLUMNS) columns[key] = grown(columns[key], cap);
      this.idBytes = grown(this.idBytes, cap * ID_BYTES);
    }
  }

  /** Room for device name indexes up to `max`. */
  widenDevices(max: number): void {
    if (max >= 0xffff && this.device instanceof Uint16Array) this.device = Uint32Array.from(this.device);
  }

  /** Drops spare capacity (after a bulk load, when no more rows are coming soon). */
  trim(): void {
    if (this.at.length === this.n) return;
    const columns = this.rowColumns();
    for (const key of ROW_COLUMNS) columns[key] = columns[key].slice(0, this.n);
    this.idBytes = this.idBytes.slice(0, this.n * ID_BYTES);
  }

  /** Bytes held by the rows (capacity included). */
  get bytes(): number {
    return (
      this.at.byteLength +
      this.snap.byteLength +
      this.device.byteLength +
      this.flags.byteLength +
      this.idBytes.byteLength
    );
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
    return row;
  }

  /** This object seen as its row columns by name (each key reads and writes its own column). */
  private rowColumns(): Record<(typeof ROW_COLUMNS)[number], Column> {
    return this;
  }

  /** Opens a gap at row `pos` by moving rows [pos, n) one place on. */
  private shift(pos: number): void {
    const { n } = this;
    for (const key of ROW_COLUMNS) this[key].copyWithin(pos + 1, pos, n);
    this.idBytes.copyWithin((pos + 1) * ID_BYTES, pos * ID_BYTES, n * ID_BYTES);
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

  /** Merges the unsorted tail into the sorted rows; equal times keep the order they were added in. */
  ensureSorted(): void {
    this.farInserts = 0;
    const { n, sorted } = this;
    if (sorted === n) return;
    const at = this.at;
    const tail = Array.from({ length: n - sorted }, (_, i) => sorted + i);
    tail.sort((a, b) => at[a]! - at[b]! || a - b);
    const order = new Int32Array(n);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < sorted && j < tail.length) {
      const t = tail[j]!;
      if (at[t]! < at[i]!) {
        order[k++] = t;
        j += 1;
      } else {
        order[k++] = i++;
      }
    }
    while (i < sorted) order[k++] = i++;
    while (j < tail.length) order[k++] = tail[j++]!;
    const gather = <T extends Column>(column: T): T => {
      const next = new (column.constructor as new (length: number) => T)(column.length);
      for (let r = 0; r < n; r += 1) next[r] = column[order[r]!]!;
      return next;
    };
    const columns = this.rowColumns();
    for (const key of ROW_COLUMNS) columns[key] = gather(columns[key]);
    const bytes = new Uint8Array(this.idBytes.length);
    for (let r = 0; r < n; r += 1) {
      bytes.set(this.idBytes.subarray(order[r]! * ID_BYTES, order[r]! * ID_BYTES + ID_BYTES), r * ID_BYTES);
    }
    this.idBytes = bytes;
    this.sorted = n;
  }

  /** Rows [lo, hi) with from ≤ at ≤ to. */
  range(from: number | undefined, to: number | undefined): [number, number] {
    const lo = from === undefined ? 0 : this.lowerBound(from);
    const hi = to === undefined ? this.n : this.upperBound(to);
    return [lo, Math.max(lo, hi)];
  }
}
