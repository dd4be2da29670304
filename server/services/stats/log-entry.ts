import type { TrackRecord } from '../../domain/library.js';
import { newId } from '../../domain/ids.js';
import type { PlayLogEntry } from '../../domain/play.js';

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
  return new LogEntry(library, track, log);
}

/**
 * A class, not an object literal, for the memory of imports. V8 watches whether the objects an
 * object literal makes outlive young collections, and once most do, it "pretenures" the literal:
 * makes its objects in the old generation, where only a full collection frees them. An import's
 * entries stay alive while their batch is written and fsynced, so the literal was pretenured in the
 * first batches, every later entry was old-generation garbage, and the heap grew by tens of MB
 * between full collections. `new` of a class has no such allocation site: its instances
 * are made young and die there. The import's listens and matched listens are classes for the same
 * reason (import-service.ts, history-service.ts).
 */
class LogEntry implements PlayLogEntry {
  readonly id = newId();
  readonly userId: string;
  readonly trackId: string;
  readonly albumId: string | null;
  readonly artistIds: string[];
  readonly genres: string[];
  readonly durationMs: number;
  readonly device: string | null;
  readonly type: 'play' | 'skip';
  readonly at: number;
  readonly explicitAt: boolean;
  readonly trackName: string | null;
  readonly albumName: string | null;
  readonly artistNames: string[];

  constructor(
    library: LibraryNames,
    track: TrackRecord,
    log: { userId: string; type: 'play' | 'skip'; at: number; device: string | null; explicitAt: boolean },
  ) {
    const artistIds = [...new Set(track.artistIds)];
    this.userId = log.userId;
    this.trackId = track.id;
    this.albumId = track.albumId;
    this.artistIds = artistIds;
    this.genres = track.genres;
    this.durationMs = track.durationMs;
    this.device = log.device;
    this.type = log.type;
    this.at = log.at;
    this.explicitAt = log.explicitAt;
    this.trackName = track.name;
    this.albumName = track.albumId ? library.albumName(track.albumId) : null;
    this.artistNames = artistIds.map((id) => library.artistName(id) ?? '');
  }
}
