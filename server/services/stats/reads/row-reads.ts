import { nextStep, stepStart, type DateStep } from '../../../domain/dates.js';
import type { PlayLogEntry } from '../../../domain/play.js';
import { entryAt, type IdOfLine } from '../columns/row-entry.js';
import { EXPLICIT, SKIP, type UserColumns } from '../columns/user-columns.js';
import { listening } from '../sums/scans.js';
import type { ActivitySums, PlayCount } from './results.js';
import { acceptedDevices, type ReadParts, type Selection } from './selection.js';

/** The reads that walk a selection's rows one by one, newest first or in time steps. */

/** The plays (not skips) of a listener's selected device, newest first: [offset, offset + limit). */
export function recentPlays(
  parts: ReadParts,
  sel: Selection,
  offset: number,
  limit: number,
  idOfLine: IdOfLine,
): PlayLogEntry[] {
  const { u } = sel;
  const accept = acceptedDevices(parts, sel);
  const out: PlayLogEntry[] = [];
  let skip = offset;
  for (let row = u.n - 1; row >= 0 && out.length < limit; row -= 1) {
    if (u.flags[row]! & SKIP) continue;
    if (accept && accept[u.device[row]!] === 0) continue;
    if (skip > 0) skip -= 1;
    else out.push(entryAt(parts.tables, u, row, idOfLine));
  }
  return out;
}

/**
 * Empty steps from the one containing `from` to the one containing `to`; stops as soon as there
 * are more than `maxSteps`, since the caller refuses such a range.
 */
export function activitySteps(from: number, to: number, step: DateStep, maxSteps: number): ActivitySums[] {
  const steps: ActivitySums[] = [];
  for (let start = stepStart(from, step); start <= to; start = nextStep(start, step)) {
    steps.push({ start, plays: 0, skips: 0, listeningMs: 0 });
    if (steps.length > maxSteps) return steps;
  }
  return steps;
}

/** Counts the selected rows into `steps` (sorted by start, covering the selection's range). */
export function countActivity(parts: ReadParts, sel: Selection, steps: ActivitySums[]): ActivitySums[] {
  const { u, lo, hi } = sel;
  const accept = acceptedDevices(parts, sel);
  const duration = parts.tables.snapshots.duration;
  let s = 0;
  let current = steps[0]!;
  for (let row = lo; row < hi; row += 1) {
    if (accept && accept[u.device[row]!] === 0) continue;
    const at = u.at[row]!;
    while (s + 1 < steps.length && at >= steps[s + 1]!.start) current = steps[++s]!;
    if (u.flags[row]! & SKIP) {
      current.skips += 1;
    } else {
      current.plays += 1;
      current.listeningMs += duration[u.snap[row]!]!;
    }
  }
  return steps;
}

/** The log a client's retry repeats: same user, track, type and client-given time. */
export function findRetry(
  parts: ReadParts,
  u: UserColumns,
  trackId: string,
  type: 'play' | 'skip',
  at: number,
  idOfLine: IdOfLine,
): PlayLogEntry | undefined {
  const trackIdx = parts.tables.tracks.get(trackId);
  if (trackIdx === undefined) return undefined;
  const want = EXPLICIT | (type === 'skip' ? SKIP : 0);
  const track = parts.tables.snapshots.track;
  for (let row = u.lowerBound(at); row < u.n && u.at[row] === at; row += 1) {
    if (track[u.snap[row]!] === trackIdx && (u.flags[row]! & (EXPLICIT | SKIP)) === want)
      return entryAt(parts.tables, u, row, idOfLine);
  }
  return undefined;
}

/** A selection's listening time and plays: kept all-time sums when it holds every row, else a scan. */
export function listeningOf(
  { tallies, tables }: ReadParts,
  sel: Selection,
): { totalMs: number; plays: number } {
  const { u, device } = sel;
  if (sel.whole) {
    if (device === undefined) return { totalMs: u.listeningMs, plays: u.plays };
    const t = tallies.device(u, device);
    return { totalMs: t.ms, plays: t.plays };
  }
  return tallies.withRangeSums(u, sel.lo, sel.hi, device, (sums) => listening(sums, tables.snapshots));
}

/** Every track or album a listener played, from the all-time sums kept of them. */
export function playCountsOf(
  { tallies, tables }: ReadParts,
  u: UserColumns | undefined,
  kind: 'tracks' | 'albums',
): Map<string, PlayCount> {
  const counts = new Map<string, PlayCount>();
  if (!u) return counts;
  const tally = tallies.all(u)[kind];
  const ids = tables.idsOf(kind);
  for (let idx = 0; idx < ids.length; idx += 1) {
    const plays = tally.playsOf(idx);
    if (plays > 0) counts.set(ids[idx]!, { plays, lastPlayedAt: tally.lastOf(idx) });
  }
  return counts;
}

/**
 * A lookup of a user's plays and latest play of one track or album, undefined for one they never
 * played, in the same kept all-time sums as playCountsOf: a page of a few hundred items costs a few
 * hundred lookups, not a map of everything the user ever played.
 */
export function playCountLookupOf(
  { tallies, tables }: ReadParts,
  u: UserColumns | undefined,
  kind: 'tracks' | 'albums',
): (id: string) => PlayCount | undefined {
  if (!u) return () => undefined;
  const all = tallies.all(u);
  const interned = kind === 'tracks' ? tables.tracks : tables.albums;
  return (id) => {
    const idx = interned.get(id);
    if (idx === undefined) return undefined;
    // Read at each call: the arrays are replaced as they grow.
    const tally = all[kind];
    const count = tally.playsOf(idx);
    return count > 0 ? { plays: count, lastPlayedAt: tally.lastOf(idx) } : undefined;
  };
}

/**
 * A lookup of a user's latest play (epoch ms) of a track, undefined for a track they never played
 * (skips do not count), in the all-time sums kept current on every add: no object per track, so a
 * caller that checks a few hundred tracks does not pay for the thousands the user played.
 */
export function latestPlaysOf(
  { tallies, tables }: ReadParts,
  u: UserColumns | undefined,
): (trackId: string) => number | undefined {
  if (!u) return () => undefined;
  const all = tallies.all(u);
  return (trackId) => {
    const idx = tables.tracks.get(trackId);
    // Read at each call: the arrays are replaced as they grow.
    const tally = all.tracks;
    return idx !== undefined && tally.playsOf(idx) > 0 ? tally.lastOf(idx) : undefined;
  };
}
