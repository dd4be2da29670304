import type { SnapshotTable } from '../tables/snapshots.js';
import type { Kind, Tallies, Tally } from './tally.js';
import { SKIP, type UserColumns } from '../columns/user-columns.js';
import { ITEMS_PER_LOOK, finish, timeIsUp } from '../../steps.js';

/**
 * Sums per snapshot (plays, skips, latest play) of rows [lo, hi) of `u`, into `out` (clean, with
 * room for every snapshot); `device` marks the device name indexes (+1) a device filter accepts.
 * The loops are kept apart per case so each stays a tight loop over three typed arrays. A range to
 * the last row reading fewer rows as the user's all-time sums minus the rows before it (the
 * complement) is read so: "everything but the first day" costs what all time does, and with a heavy
 * listener's marks (row-marks.ts) the rows before a range are a mark's sums and the few rows
 * between. A range ending earlier is scanned: its latest plays would have to be found again for
 * every track also played after it, and one such track last played years before makes that search
 * read the whole range (the "Forgotten favourites" mix's range, a year ago and older, did).
 */
export function snapshotSums(out: Tally, u: UserColumns, lo: number, hi: number, device?: Uint8Array): void {
  const before = device ? undefined : rowsBefore(u, lo);
  if (device) {
    scanDevice(out, u, lo, hi, device);
  } else if (hi === u.n && before!.rows < hi - lo) {
    complement(out, u, lo, before!.mark);
  } else if (hi - lo > out.plays.length) {
    scanDense(out, u, lo, hi);
  } else {
    scan(out, u, lo, hi);
  }
}

/**
 * How the sums of rows [0, lo) are read: from row 0, or from the mark nearest `lo` (`mark`);
 * `rows`: how many rows that reads.
 */
function rowsBefore(u: UserColumns, lo: number): { mark: number; rows: number } {
  const mark = u.marks ? u.marks.nearest(lo) : -1;
  return { mark, rows: mark < 0 ? lo : Math.abs(u.marks!.rows[mark]! - lo) };
}

function scan(out: Tally, u: UserColumns, lo: number, hi: number): void {
  const { plays, skips, last, touched } = out;
  const { snap, flags, at } = u;
  let count = out.touchedCount;
  for (let row = lo; row < hi; row += 1) {
    const s = snap[row]!;
    if (plays[s] === 0 && skips[s] === 0) touched[count++] = s;
    if (flags[row]! & SKIP) {
      skips[s] = skips[s]! + 1;
    } else {
      plays[s] = plays[s]! + 1;
      last[s] = at[row]!;
    }
  }
  out.touchedCount = count;
}

/**
 * A range with more rows than there are snapshots: no bookkeeping per row of which snapshots it
 * touched; one pass over the snapshots afterwards finds them.
 */
function scanDense(out: Tally, u: UserColumns, lo: number, hi: number): void {
  const { plays, skips, last } = out;
  const { snap, flags, at } = u;
  for (let row = lo; row < hi; row += 1) {
    const s = snap[row]!;
    if (flags[row]! & SKIP) {
      skips[s] = skips[s]! + 1;
    } else {
      plays[s] = plays[s]! + 1;
      last[s] = at[row]!;
    }
  }
  noteTouched(out);
}

/** Notes in `out.touched` (empty) every snapshot with a play or a skip: one pass over the snapshots. */
function noteTouched(out: Tally): void {
  const { plays, skips, touched } = out;
  let count = 0;
  for (let s = 0; s < plays.length; s += 1) if (plays[s] !== 0 || skips[s] !== 0) touched[count++] = s;
  out.touchedCount = count;
}

function scanDevice(out: Tally, u: UserColumns, lo: number, hi: number, accept: Uint8Array): void {
  const { plays, skips, last, touched } = out;
  const { snap, flags, at, device } = u;
  let count = out.touchedCount;
  for (let row = lo; row < hi; row += 1) {
    if (accept[device[row]!] === 0) continue;
    const s = snap[row]!;
    if (plays[s] === 0 && skips[s] === 0) touched[count++] = s;
    if (flags[row]! & SKIP) {
      skips[s] = skips[s]! + 1;
    } else {
      plays[s] = plays[s]! + 1;
      last[s] = at[row]!;
    }
  }
  out.touchedCount = count;
}

/**
 * Adds `by` per row of rows [from, to) to their snapshot's plays or skips: -1 takes them off sums,
 * 1 counts them (a heavy listener's marks, row-marks.ts).
 */
export function countRows(
  plays: Int32Array,
  skips: Int32Array,
  u: UserColumns,
  from: number,
  to: number,
  by: number,
): void {
  const { snap, flags } = u;
  for (let row = from; row < to; row += 1) {
    const s = snap[row]!;
    if (flags[row]! & SKIP) skips[s] = skips[s]! + by;
    else plays[s] = plays[s]! + by;
  }
}

/** `from`'s plays, skips and latest plays into `out` (dense, clean, and as long or longer). */
function copySums(out: Tally, from: Tally): void {
  const { plays, skips, last } = out;
  if (!from.slot) {
    // Whole arrays copied: a copy of memory, not a loop.
    plays.set(from.plays.subarray(0, Math.min(from.plays.length, plays.length)));
    skips.set(from.skips.subarray(0, Math.min(from.skips.length, skips.length)));
    last.set(from.last.subarray(0, Math.min(from.last.length, last.length)));
    return;
  }
  for (let i = 0; i < from.touchedCount; i += 1) {
    const s = from.touched[i]!;
    if (s >= plays.length) continue;
    plays[s] = from.plays[i]!;
    skips[s] = from.skips[i]!;
    last[s] = from.last[i]!;
  }
}

/** All-time sums minus rows [0, lo), read from mark `mark` of the user's row marks (-1: from row 0). */
function complement(out: Tally, u: UserColumns, lo: number, mark: number): void {
  const { plays, skips } = out;
  copySums(out, u.bySnapshot);
  if (mark < 0) {
    countRows(plays, skips, u, 0, lo, -1);
  } else {
    const marks = u.marks!;
    const markPlays = marks.plays[mark]!;
    const markSkips = marks.skips[mark]!;
    // A mark's plays and skips are as long as each other (row-marks.ts).
    const counted = Math.min(markPlays.length, plays.length);
    for (let s = 0; s < counted; s += 1) {
      plays[s] = plays[s]! - markPlays[s]!;
      skips[s] = skips[s]! - markSkips[s]!;
    }
    const row = marks.rows[mark]!;
    if (row <= lo) countRows(plays, skips, u, row, lo, -1);
    else countRows(plays, skips, u, lo, row, 1);
  }
  noteTouched(out);
}

/**
 * Adds the per-snapshot sums `from` to the sums of one kind in `into` (genres: their spellings too);
 * those of its touched snapshots [first, end) when told, in that order, the first part first.
 */
export function foldKind(
  into: Tallies,
  from: Tally,
  table: SnapshotTable,
  kind: Kind,
  first = 0,
  end = from.touchedCount,
): void {
  // Room for every item first: grown add by add, an array would be copied again at every growth.
  if (first === 0) {
    into[kind].ensure(table.itemCount(kind));
    // A sparse tally's sums too: at most an item per snapshot of `from`, for tracks and albums.
    into[kind].reserve(Math.min(table.itemCount(kind), from.touchedCount));
    if (kind === 'genres') into.spellings.ensure(table.itemCount('spellings'));
  }
  const { plays, skips, last, touched } = from;
  const sparse = from.slot !== undefined;
  const { duration, artists, genreKeys, spellings } = table;
  for (let t = first; t < end; t += 1) {
    const s = touched[t]!;
    // A sparse tally's slot t holds touched[t]'s sums.
    const at = sparse ? t : s;
    const p = plays[at]!;
    const k = skips[at]!;
    if (p === 0 && k === 0) continue;
    const ms = p * duration[s]!;
    const l = last[at]!;
    switch (kind) {
      case 'tracks':
        into.tracks.add(table.track[s]!, p, k, ms, l);
        break;
      case 'albums': {
        const album = table.album[s]!;
        if (album >= 0) into.albums.add(album, p, k, ms, l);
        break;
      }
      case 'artists':
        for (let i = artists.start[s]!; i < artists.start[s + 1]!; i += 1)
          into.artists.add(artists.values[i]!, p, k, ms, l);
        break;
      case 'genres':
        for (let i = genreKeys.start[s]!; i < genreKeys.start[s + 1]!; i += 1)
          into.genres.add(genreKeys.values[i]!, p, k, ms, l);
        if (p > 0) {
          for (let i = spellings.start[s]!; i < spellings.start[s + 1]!; i += 1)
            into.spellings.add(spellings.values[i]!, p, 0, ms, l);
        }
        break;
    }
  }
}

/** Adds the per-snapshot sums `from` to every kind of `into`, and to its overall sums. */
export function foldAll(into: Tallies, from: Tally, table: SnapshotTable): void {
  finish(foldAllInSteps(into, from, table));
}

/**
 * `foldAll`, pausing after each kind, and within one once its time is up (steps.ts): a load in the
 * background settles its listeners in steps.
 */
export function* foldAllInSteps(into: Tallies, from: Tally, table: SnapshotTable): Generator<void, void> {
  const count = from.touchedCount;
  for (const kind of ['tracks', 'albums', 'artists', 'genres'] as const) {
    for (let t = 0; t < count; t += ITEMS_PER_LOOK) {
      if (t > 0 && timeIsUp()) yield;
      foldKind(into, from, table, kind, t, Math.min(count, t + ITEMS_PER_LOOK));
    }
    if (count === 0) foldKind(into, from, table, kind);
    yield;
  }
  const { plays, duration } = { plays: from.plays, duration: table.duration };
  const sparse = from.slot !== undefined;
  for (let t = 0; t < from.touchedCount; t += 1) {
    const s = from.touched[t]!;
    const p = plays[sparse ? t : s]!;
    into.plays += p;
    into.ms += p * duration[s]!;
  }
}

/** Plays and listening time in the per-snapshot sums `from`. */
export function listening(from: Tally, table: SnapshotTable): { totalMs: number; plays: number } {
  let plays = 0;
  let totalMs = 0;
  const sparse = from.slot !== undefined;
  for (let t = 0; t < from.touchedCount; t += 1) {
    const s = from.touched[t]!;
    const p = from.plays[sparse ? t : s]!;
    plays += p;
    totalMs += p * table.duration[s]!;
  }
  return { totalMs, plays };
}
