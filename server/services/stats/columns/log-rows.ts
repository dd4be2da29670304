import type { PlayLogEntry } from '../../../domain/play.js';
import { firstHeard } from './first-heard.js';
import type { SnapshotTable } from '../tables/snapshots.js';
import { SKIP, type UserColumns } from './user-columns.js';

/**
 * One user's logs as StatsIndex holds them (time-sorted columns, each row pointing at a snapshot),
 * with the snapshot table and the ids the numbers stand for. The listening history's row-by-row
 * queries live here, apart from the index's own reads.
 */
export interface LogRows {
  readonly columns: UserColumns;
  /** What each row's snapshot (`columns.snap[row]`) was: track, duration and artists by number. */
  readonly snapshots: Pick<SnapshotTable, 'track' | 'duration' | 'artists' | 'count'>;
  /** Track ids by the index's track number (`snapshots.track[s]`). */
  readonly trackIds: readonly string[];
  /** Artist ids by the index's artist number (`snapshots.artists`). */
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
  const { at, snap, flags } = u;
  const { track, duration } = rows.snapshots;
  const ids = rows.trackIds;
  for (let row = lo; row < hi; row += 1) {
    const s = snap[row]!;
    visit(ids[track[s]!]!, at[row]!, (flags[row]! & SKIP) !== 0, duration[s]!);
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
  const flags = rows.columns.flags;
  for (let row = lo; row < hi; row += 1) if ((flags[row]! & SKIP) === 0) return true;
  return false;
}

/** The first play (not a skip) in [from, to], or null: its time and track. */
export function firstPlayIn(
  rows: LogRows | undefined,
  from: number,
  to: number,
): { at: number; trackId: string } | null {
  if (!rows) return null;
  const [lo, hi] = rows.columns.range(from, to);
  const { at, snap, flags } = rows.columns;
  for (let row = lo; row < hi; row += 1)
    if ((flags[row]! & SKIP) === 0)
      return { at: at[row]!, trackId: rows.trackIds[rows.snapshots.track[snap[row]!]!]! };
  return null;
}

/**
 * Marks in `heard` (by the index's artist number) the artists of every play at or before `until`:
 * from each artist's first play (first-heard.ts), a look per artist however many rows came before.
 */
export function markArtistsPlayedUntil(rows: LogRows | undefined, until: number, heard: Uint8Array): void {
  if (!rows) return;
  const first = firstHeard(rows.columns, rows.snapshots.artists);
  for (let artist = 0; artist < first.length; artist += 1) if (first[artist]! <= until) heard[artist] = 1;
}

export function logRows(
  columns: UserColumns,
  snapshots: LogRows['snapshots'],
  trackIds: readonly string[],
  artistIds: readonly string[],
  entryAt: (row: number) => PlayLogEntry,
): LogRows {
  return { columns, snapshots, trackIds, artistIds, entryAt };
}
