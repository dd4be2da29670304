/**
 * One play or skip, as logged. The album, artists, genres, duration and names are a snapshot taken
 * when the log was written, so statistics stay stable when the library changes (docs/API.md, Statistics).
 */
export interface PlayLogEntry {
  id: string;
  userId: string;
  trackId: string;
  albumId: string | null;
  artistIds: string[];
  genres: string[];
  durationMs: number;
  device: string | null;
  type: 'play' | 'skip';
  /** Epoch milliseconds, UTC. */
  at: number;
  /** Whether the client gave the time (only those logs can be retried, see StatsService). */
  explicitAt: boolean;
  trackName: string | null;
  albumName: string | null;
  artistNames: string[];
}

/** What a track was when it was played: the part of a log that most logs of a track share. */
export type PlaySnapshot = Pick<
  PlayLogEntry,
  'trackId' | 'albumId' | 'artistIds' | 'genres' | 'durationMs' | 'trackName' | 'albumName' | 'artistNames'
>;
