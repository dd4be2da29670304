import type { TrackRecord } from '../../domain/library.js';
import { newId } from '../../domain/ids.js';
import type { PlayLogEntry } from '../../store/play-log.js';

/** The library's names, for the snapshot a log entry keeps. */
export interface LibraryNames {
  albumName(id: string): string | null;
  artistName(id: string): string | null;
}

/** A new play log entry for a track, with the snapshot of its album, artists, genres and names. */
export function logEntryFor(
  library: LibraryNames,
  track: TrackRecord,
  log: { userId: string; type: 'play' | 'skip'; at: number; device: string | null; explicitAt: boolean },
): PlayLogEntry {
  const artistIds = [...new Set(track.artistIds)];
  return {
    id: newId(),
    userId: log.userId,
    trackId: track.id,
    albumId: track.albumId,
    artistIds,
    genres: track.genres,
    durationMs: track.durationMs,
    device: log.device,
    type: log.type,
    at: log.at,
    explicitAt: log.explicitAt,
    trackName: track.name,
    albumName: track.albumId ? library.albumName(track.albumId) : null,
    artistNames: artistIds.map((id) => library.artistName(id) ?? ''),
  };
}
