import { firstHeard } from '../columns/first-heard.js';
import { SKIP } from '../columns/user-columns.js';
import type { StatsFilter } from './results.js';
import type { StatsIndex } from '../stats-index.js';

/**
 * Two facts of a range for the statistics' headline, each read from the index without an object per
 * row: on how many days the user listened, and which artists they first heard in it.
 */

/**
 * The local days (the server's time zone, as the activity steps) with at least one play of the
 * filter. The rows are in time order, so a day is counted at its first play and the rest of it
 * skipped with one comparison per row; a Date is made once per day counted.
 */
export function daysListenedOf(index: StatsIndex, filter: StatsFilter): number {
  const span = index.rowSpan(filter);
  if (!span) return 0;
  const { at, flags, device, accept, lo, hi } = span;
  let days = 0;
  let dayEnd = -Infinity;
  for (let row = lo; row < hi; row += 1) {
    const t = at[row]!;
    if (t < dayEnd || (flags[row]! & SKIP) !== 0) continue;
    if (accept && accept[device[row]!] !== 1) continue;
    days += 1;
    const date = new Date(t);
    dayEnd = new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime();
  }
  return days;
}

/**
 * The artists whose first play by the user (on any device: hearing an artist for the first time is
 * the listener's, not a device's) lies in the filter's range, by id. From each artist's first play,
 * kept by the index (first-heard.ts): a look per artist, however long the history.
 */
export function newArtistIdsOf(index: StatsIndex, filter: StatsFilter): string[] {
  const rows = index.rowsOf(filter.userId);
  if (!rows) return [];
  const first = firstHeard(rows.columns, rows.snapshots.artists);
  // Infinity: never heard (or an artist only of other users).
  const from = filter.from ?? -Infinity;
  const to = filter.to ?? Infinity;
  const ids: string[] = [];
  for (let artist = 0; artist < first.length; artist += 1) {
    const heard = first[artist]!;
    if (heard !== Infinity && heard >= from && heard <= to) ids.push(rows.artistIds[artist]!);
  }
  return ids;
}
