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
 * scan then starts over; after three tries it is made at once.
 */
export async function scanInSlices(
  u: UserColumns,
  rows: () => readonly [number, number],
  start: () => void,
  visit: (lo: number, hi: number) => void,
  slicing: Slicing,
): Promise<void> {
  for (let tries = 1; ; tries += 1) {
    const [lo, hi] = rows();
    const n = u.n;
    const step = tries > SLICED_TRIES ? Infinity : slicing.rowsPerTurn;
    start();
    for (let row = lo; row < hi;) {
      const end = Math.min(hi, row + step);
      visit(row, end);
      row = end;
      if (row === hi) return;
      await slicing.nextTurn();
      if (u.n !== n) break;
    }
    if (u.n === n) return;
  }
}
