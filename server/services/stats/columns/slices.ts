import type { UserColumns } from './user-columns.js';

/** How a scan over a user's rows is split: rows per slice, and the wait for a later turn of the event loop. */
export interface Slicing {
  readonly rowsPerTurn: number;
  readonly nextTurn: () => Promise<void>;
}

/** Tries made a slice at a time before a scan is made at once. */
export const SLICED_TRIES = 3;

/**
 * Scans rows of `u` a slice at a time, waiting a turn of the event loop between slices, so a scan
 * over a heavy listener's rows does not hold the loop, as it would made at once, while other
 * requests wait. `rows()` says which rows to scan, `start()` readies the scan's sums, and
 * `visit(lo, hi)` adds rows [lo, hi) to them. A log that lands between slices may move rows, so the
 * scan then starts over; after three tries it is made at once. Logs added after the last row (a
 * play now, the usual case) move none: when `fits()` says the sums `start` made can take them, the
 * scan goes on, over them too if the range reaches them, rather than start over.
 */
export async function scanInSlices(
  u: UserColumns,
  rows: () => readonly [number, number],
  start: () => void,
  visit: (lo: number, hi: number) => void,
  slicing: Slicing,
  fits: () => boolean = () => false,
): Promise<void> {
  for (let tries = 1; ; tries += 1) {
    const [lo, first] = rows();
    let hi = first;
    let n = u.n;
    const moves = u.moves;
    const step = tries > SLICED_TRIES ? Infinity : slicing.rowsPerTurn;
    // Whether the rows scanned so far are as they were, and what was added since fits the sums.
    const unmoved = () => u.moves === moves && (u.n === n || fits());
    start();
    let row = lo;
    for (;;) {
      while (row < hi) {
        const end = Math.min(hi, row + step);
        visit(row, end);
        row = end;
        if (row === hi) break;
        await slicing.nextTurn();
        if (!unmoved()) break;
      }
      if (row < hi || u.moves !== moves) break;
      if (u.n === n) return;
      // Logs were added at the end since `rows()`: the range may reach further now.
      const [from, to] = rows();
      if (!unmoved() || from !== lo || to < hi) break;
      hi = to;
      n = u.n;
    }
  }
}
