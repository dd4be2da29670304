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

/**
 * Log lines read in bulk at start, in file order, as columns: what an index needs of each line and
 * no object per line. Row i is a log at `at[i]` by `users[user[i]]` of the log's snapshot
 * `snapshot[i]`, on device `devices[device[i] - 1]` (0: none), a skip when `kind[i]` has
 * `ROW_SKIP`, its time given by the client when it has `ROW_EXPLICIT_AT`, its line starting at byte
 * `line[i]` of the log. Only rows [0, count) are filled, and only during the call they are handed
 * to: the arrays are filled again with the next rows.
 */
export interface LoggedRows {
  readonly count: number;
  /**
   * How many more rows the rest of the log holds, per row read so far, estimated from its bytes
   * (0 at the end): an index can make room for them all at once.
   */
  readonly toCome: number;
  readonly at: Float64Array;
  readonly user: Uint32Array;
  readonly snapshot: Uint32Array;
  readonly device: Uint32Array;
  readonly kind: Uint8Array;
  readonly line: Float64Array;
}

export const ROW_SKIP = 1;
export const ROW_EXPLICIT_AT = 2;

/** The names `LoggedRows` refer to by number; they only grow while the log is read. */
export interface LoggedNames {
  readonly users: readonly string[];
  readonly devices: readonly string[];
  /**
   * The log's snapshot `n`: every row's is there when the row is handed over, until the log is
   * read (the store lets them go then).
   */
  snapshot(n: number): PlaySnapshot | undefined;
}
