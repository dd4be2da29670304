import type { PlayLogEntry } from '../../store/play-log.js';
import { SKIP, type UserColumns } from './user-columns.js';

/**
 * One user's logs as StatsIndex holds them (sorted columns), with what their rows point at. The
 * listening history's row-by-row queries live here, apart from the index's own reads.
 */
export interface LogRows {
  readonly columns: UserColumns;
  /** Track ids by the index's track number (`columns.track[row]`). */
  readonly trackIds: readonly string[];
  /** Artist ids by the index's artist number (`columns.artFlat[...]`). */
  readonly artistIds: readonly string[];
  /** The whole entry of a row (costs an object; for exports, not for scans). */
  entryAt(row: number): PlayLogEntry;
}

/** A log as the history's scans see it: no object per row, just the fields. */
export type LogVisitor = (trackId: string, at: number, skip: boolean, durationMs: number) => void;

/** Visits the logs with from ≤ at ≤ to (either open), oldest first. */
export function forEachLog(
  rows: LogRows | undefined,
  from: number | undefined,
  to: number | undefined,
  visit: LogVisitor,
): void {
  if (!rows) return;
  const u = rows.columns;
  const [lo, hi] = u.range(from, to);
  const { at, track, flags, duration } = u;
  const ids = rows.trackIds;
  for (let row = lo; row < hi; row += 1) {
    visit(ids[track[row]!]!, at[row]!, (flags[row]! & SKIP) !== 0, duration[row]!);
  }
}

/** Up to `limit` whole entries from row `start` on, oldest first (an export's page). */
export function entriesFrom(rows: LogRows | undefined, start: number, limit: number): PlayLogEntry[] {
  if (!rows) return [];
  const end = Math.min(rows.columns.n, start + limit);
  const out: PlayLogEntry[] = [];
  for (let row = start; row < end; row += 1) out.push(rows.entryAt(row));
  return out;
}

/** Whether a play (not a skip) lies in [from, to]. */
export function hasPlay(rows: LogRows | undefined, from: number, to: number): boolean {
  if (!rows) return false;
  const [lo, hi] = rows.columns.range(from, to);
  for (let row = lo; row < hi; row += 1) if ((rows.columns.flags[row]! & SKIP) === 0) return true;
  return false;
}

/** Visits the artists of every play in [from, to] (either open), by the index's artist number. */
export function forEachArtistPlay(
  rows: LogRows | undefined,
  from: number | undefined,
  to: number | undefined,
  visit: (artist: number) => void,
): void {
  if (!rows) return;
  const u = rows.columns;
  const [lo, hi] = u.range(from, to);
  const { flags, artStart, artCount, artFlat } = u;
  for (let row = lo; row < hi; row += 1) {
    if (flags[row]! & SKIP) continue;
    const start = artStart[row]!;
    for (let i = start; i < start + artCount[row]!; i += 1) visit(artFlat[i]!);
  }
}

export function logRows(
  columns: UserColumns,
  trackIds: readonly string[],
  artistIds: readonly string[],
  entryAt: (row: number) => PlayLogEntry,
): LogRows {
  return { columns, trackIds, artistIds, entryAt };
}
