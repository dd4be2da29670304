import { capacityFor, grown } from './columns.js';
import { countRows } from '../sums/scans.js';
import type { UserColumns } from './user-columns.js';

/**
 * A heavy listener's sums are marked every this many rows: a mark holds sums for every snapshot, so
 * marks are far apart, and a read then scans at most half this many rows past one.
 */
export const MARK_EVERY = 1 << 17;

/**
 * Sums per snapshot (plays, skips) of a heavy listener's first rows, at every `every` rows: the sums
 * of rows [0, lo) are then a mark's, plus or minus the rows between it and `lo`, at most half a
 * mark's distance. A range reaching to the end (the last five years) is the all-time sums less
 * those (scans.ts): a scan of the rows between `lo` and the nearest mark instead of every row
 * before or after it. Made ahead of the ranged reads of a user with at least two marks' worth of rows, a mark
 * per turn of the event loop, and extended as their rows grow (UserTallies.prepareMarks); kept
 * current when a log is inserted before a mark; dropped when the rows are reordered (an unsorted
 * tail merged): the next ranged read makes them again. A read finding fewer marks, or none, reads
 * more rows but the same sums.
 */
export class RowMarks {
  /** Per mark, the row it is at: it holds the sums of rows [0, row). */
  readonly rows: number[] = [];
  readonly plays: Int32Array[] = [];
  readonly skips: Int32Array[] = [];

  constructor(readonly every: number) {}

  /** Whether a user has rows enough to be worth marking. */
  static worthFor(rows: number, every: number): boolean {
    return rows >= 2 * every;
  }

  /**
   * Adds the next mark, `every` rows past the last one (or from row 0), when `u`'s sorted rows reach
   * it: false when they do not. `snapshots`: how many snapshots there are. A mark a call, so they are
   * made a turn of the event loop each: a heavy listener's marks made at once would hold it.
   */
  extendOne(u: UserColumns, snapshots: number): boolean {
    const last = this.rows.length - 1;
    const row = last < 0 ? 0 : this.rows[last]!;
    const end = row + this.every;
    if (end > u.sorted) return false;
    const plays = new Int32Array(Math.max(snapshots, this.plays[last]?.length ?? 0));
    const skips = new Int32Array(plays.length);
    if (last >= 0) {
      plays.set(this.plays[last]!);
      skips.set(this.skips[last]!);
    }
    countRows(plays, skips, u, row, end, 1);
    this.rows.push(end);
    this.plays.push(plays);
    this.skips.push(skips);
    return true;
  }

  /**
   * A log of snapshot `s` was inserted at row `row` (the rows from it on moved one on): the marks
   * after it count it and move with their rows.
   */
  inserted(row: number, s: number, skip: boolean): void {
    for (let m = this.rows.length - 1; m >= 0 && this.rows[m]! > row; m -= 1) {
      this.rows[m] = this.rows[m]! + 1;
      // A mark's plays and skips stay as long as each other (`extendOne` copies both into one length).
      if (s >= this.plays[m]!.length) {
        const cap = capacityFor(s + 1, this.plays[m]!.length);
        this.plays[m] = grown(this.plays[m]!, cap);
        this.skips[m] = grown(this.skips[m]!, cap);
      }
      const counts = skip ? this.skips[m]! : this.plays[m]!;
      counts[s] = counts[s]! + 1;
    }
  }

  /** The mark nearest row `lo`, or -1 when row 0 is nearer than any. */
  nearest(lo: number): number {
    // The first mark at or past `lo`, by binary search (the marks are in row order).
    let a = 0;
    let b = this.rows.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (this.rows[mid]! < lo) a = mid + 1;
      else b = mid;
    }
    let best = -1;
    let distance = lo;
    for (const m of [a - 1, a]) {
      if (m >= 0 && m < this.rows.length && Math.abs(this.rows[m]! - lo) < distance) {
        best = m;
        distance = Math.abs(this.rows[m]! - lo);
      }
    }
    return best;
  }
}
