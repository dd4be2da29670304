import type { PlayLogEntry } from '../../../domain/play.js';
import type { IndexTables } from '../tables/index-tables.js';
import { EXPLICIT, SKIP, type UserColumns } from './user-columns.js';

/** Reads the log id on the play log's line starting at byte `line` (PlayLog.idAt). */
export type IdOfLine = (line: number) => string;

/** Rebuilds the logged entry of a row from the columns (its id from the play log, see UserColumns). */
export function entryAt(tables: IndexTables, u: UserColumns, row: number, idOfLine: IdOfLine): PlayLogEntry {
  const flags = u.flags[row]!;
  const device = u.device[row]!;
  const id = u.idOf(row, idOfLine);
  const s = tables.snapshots.fields(u.snap[row]!);
  return {
    id,
    userId: tables.users.values[u.userIdx]!,
    trackId: s.trackId,
    albumId: s.albumId,
    artistIds: s.artistIds,
    genres: s.genres,
    durationMs: s.durationMs,
    device: device === 0 ? null : tables.devices.names.values[device - 1]!,
    type: flags & SKIP ? 'skip' : 'play',
    at: u.at[row]!,
    explicitAt: (flags & EXPLICIT) !== 0,
    trackName: s.trackName,
    albumName: s.albumName,
    artistNames: s.artistNames,
  };
}
