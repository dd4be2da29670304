import { finish } from '../../steps.js';
import { capacityFor, grown } from './columns.js';
import type { Lists } from '../tables/snapshots.js';
import { SKIP, type UserColumns } from './user-columns.js';

/**
 * Per artist of the index, the time of the user's first play of them (Infinity for none, and for an
 * artist past the end): made the first time by one pass over the rows for each snapshot's first play,
 * folded into the snapshot's artists (`artists`, the snapshot table's lists), then kept current by
 * `noteHeard`. "Which artists had this user heard before a date" then costs a look per artist, however
 * long the history.
 */
export function firstHeard(u: UserColumns, artists: Lists): Float64Array {
  if (u.firstHeard) return u.firstHeard;
  finish(firstHeardInSteps(u, artists));
  return u.firstHeard!;
}

/** Rows read between pauses of `firstHeardInSteps`. */
const ROWS_PER_STEP = 50_000;

/**
 * `firstHeard` made in steps, pausing after every slice of rows (a listener settling in a load in
 * the background): kept only if the rows did not change until it ends.
 */
export function* firstHeardInSteps(
  u: UserColumns,
  artists: Lists,
  /** Whether the rows are still as they were at the start: else nothing is kept. */
  unchanged: () => boolean = () => true,
): Generator<void, void> {
  if (u.firstHeard) return;
  const snapshotFirst = new Float64Array(artists.count).fill(Infinity);
  const { at, snap, flags } = u;
  for (let row = 0; row < u.n; row += 1) {
    if (row > 0 && row % ROWS_PER_STEP === 0) yield;
    if (flags[row]! & SKIP) continue;
    const s = snap[row]!;
    if (at[row]! < snapshotFirst[s]!) snapshotFirst[s] = at[row]!;
  }
  yield;
  let count = 0;
  const { size } = artists;
  for (let i = 0; i < size; i += 1) if (artists.values[i]! >= count) count = artists.values[i]! + 1;
  const heard = new Float64Array(count).fill(Infinity);
  const { start, values } = artists;
  for (let s = 0; s < snapshotFirst.length; s += 1) {
    const first = snapshotFirst[s]!;
    if (first === Infinity) continue;
    for (let i = start[s]!; i < start[s + 1]!; i += 1)
      if (first < heard[values[i]!]!) heard[values[i]!] = first;
  }
  if (unchanged()) u.firstHeard ??= heard;
}

/** Counts a play of snapshot `s` at `at` in the user's first plays of artists, once they are made. */
export function noteHeard(u: UserColumns, artists: Lists, s: number, at: number): void {
  let heard = u.firstHeard;
  if (!heard) return;
  for (let i = artists.start[s]!; i < artists.start[s + 1]!; i += 1) {
    const artist = artists.values[i]!;
    if (artist >= heard.length) {
      heard = grown(heard, capacityFor(artist + 1, heard.length)).fill(Infinity, heard.length);
      u.firstHeard = heard;
    }
    if (at < heard[artist]!) heard[artist] = at;
  }
}
