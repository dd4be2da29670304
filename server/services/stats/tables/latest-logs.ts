import type { PlayLogEntry, PlaySnapshot } from '../../../domain/play.js';
import { capacityFor, grown } from '../columns/columns.js';
import type { IndexTables } from './index-tables.js';
import { LatestNames } from './latest-names.js';
import type { UserColumns } from '../columns/user-columns.js';

/** A snapshot as logged, with its artists' names. */
export type LoggedSnapshot = PlaySnapshot & Pick<PlayLogEntry, 'artistNames'>;

/** Notes in `latest` a log of snapshot `s` by user `userIdx` at `at`. */
export function noteLatest(
  latest: LatestNames,
  tables: IndexTables,
  s: number,
  userIdx: number,
  at: number,
): void {
  const table = tables.snapshots;
  latest.note(
    tables.names.values,
    userIdx,
    table.track[s]!,
    table.album[s]!,
    table.albumName[s]!,
    table.artists,
    table.artistNames,
    s,
    at,
  );
}

/** The latest names, made from the newest log of each snapshot (its time and user, per snapshot). */
export function latestFromSnapshots(
  tables: IndexTables,
  snapshotAt: Float64Array,
  snapshotUser: Int32Array,
): LatestNames {
  const latest = LatestNames.sizedFor(tables);
  for (let s = 0; s < tables.snapshots.count; s += 1) {
    if (snapshotAt[s]! > -Infinity) noteLatest(latest, tables, s, snapshotUser[s]!, snapshotAt[s]!);
  }
  return latest;
}

/** The newest log of a track (its listener's columns and row), found from its newest log's user and time. */
export function latestRowOfTrack(
  latest: LatestNames,
  tables: IndexTables,
  columns: readonly UserColumns[],
  trackId: string,
): { u: UserColumns; row: number } | undefined {
  const trackIdx = tables.tracks.get(trackId);
  if (trackIdx === undefined) return undefined;
  const u = columns[latest.trackUserOf(trackIdx)];
  if (!u) return undefined;
  u.ensureSorted();
  const at = latest.trackAtOf(trackIdx);
  const track = tables.snapshots.track;
  let found = -1;
  for (let row = u.lowerBound(at); row < u.n && u.at[row] === at; row += 1) {
    if (track[u.snap[row]!] === trackIdx) found = row;
  }
  return found < 0 ? undefined : { u, row: found };
}

/** The newest non-empty snapshot name of an album or artist, null when none. */
export function snapshotName(
  latest: LatestNames,
  tables: IndexTables,
  kind: 'album' | 'artist',
  id: string,
): string | null {
  const idx = kind === 'album' ? tables.albums.get(id) : tables.artists.get(id);
  if (idx === undefined) return null;
  const name = latest.nameOf(kind, idx);
  return name < 0 ? null : tables.names.values[name]!;
}

/**
 * Names and newest logs for items gone from the library. It keeps per snapshot the time and user of
 * its newest log; the names are made from those at the first read that needs them (a bulk load does
 * not pay for them), then kept current by `note`.
 */
export class LatestLogs {
  private names: LatestNames | undefined;
  private snapshotAt = new Float64Array(0);
  private snapshotUser = new Int32Array(0);

  constructor(private readonly tables: IndexTables) {}

  /** A log of snapshot `s` by user `userIdx` at `at`. */
  note(s: number, userIdx: number, at: number): void {
    if (s >= this.snapshotAt.length) {
      // Room for every snapshot defined at once: a load's rows come in no order of snapshot, and
      // grown a step at a time the columns would be copied over and over.
      const cap = Math.max(capacityFor(s + 1, this.snapshotAt.length), this.tables.snapshots.count);
      this.snapshotAt = grown(this.snapshotAt, cap).fill(-Infinity, this.snapshotAt.length);
      this.snapshotUser = grown(this.snapshotUser, cap);
    }
    if (at >= this.snapshotAt[s]!) {
      this.snapshotAt[s] = at;
      this.snapshotUser[s] = userIdx;
    }
    this.changes += 1;
    if (this.names) noteLatest(this.names, this.tables, s, userIdx, at);
  }

  /** Drops the names made so far (artists counted anew); they are made again at the next read. */
  forgetNames(): void {
    this.names = undefined;
    this.changes += 1;
  }

  /** Logs noted and names dropped: names made in steps meanwhile are not kept. */
  private changes = 0;

  /**
   * Makes the names ahead of the first read that needs them, `perStep` snapshots a step: a start
   * that answers before the library is read names every track by its plays, and making them at
   * that read would hold the event loop for the whole table.
   */
  *prepareInSteps(perStep: number): Generator<void, void> {
    if (this.names) return;
    const changes = this.changes;
    const latest = LatestNames.sizedFor(this.tables);
    for (let s = 0; s < this.tables.snapshots.count; s += 1) {
      if (s > 0 && s % perStep === 0) yield;
      if (this.changes !== changes) return;
      const at = this.snapshotAt[s]!;
      if (at > -Infinity) noteLatest(latest, this.tables, s, this.snapshotUser[s]!, at);
    }
    if (this.changes === changes) this.names ??= latest;
  }

  /** The snapshot of a track's newest log, as logged. */
  snapshotOfTrack(columns: readonly UserColumns[], trackId: string): LoggedSnapshot | undefined {
    const found = latestRowOfTrack(this.latest, this.tables, columns, trackId);
    return found && this.tables.snapshots.fields(found.u.snap[found.row]!);
  }

  nameOf(kind: 'album' | 'artist', id: string): string | null {
    return snapshotName(this.latest, this.tables, kind, id);
  }

  private get latest(): LatestNames {
    return (this.names ??= latestFromSnapshots(this.tables, this.snapshotAt, this.snapshotUser));
  }
}
