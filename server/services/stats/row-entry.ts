import type { PlayLogEntry } from '../../store/play-log.js';
import type { IndexTables } from './index-tables.js';
import { ID_BYTES, unpackId } from './log-ids.js';
import { EXPLICIT, OTHER_ID, SKIP, type UserColumns } from './user-columns.js';

/** Rebuilds the logged entry of a row from the columns. */
export function entryAt(tables: IndexTables, u: UserColumns, row: number): PlayLogEntry {
  const flags = u.flags[row]!;
  const device = u.device[row]!;
  const id =
    flags & OTHER_ID
      ? u.otherIds[new DataView(u.idBytes.buffer, u.idBytes.byteOffset).getUint32(row * ID_BYTES, true)]!
      : unpackId(u.idBytes, row * ID_BYTES);
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
