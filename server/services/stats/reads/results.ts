// What the statistics reads of StatsIndex take and return.

/** Which logs a read looks at. `from`/`to` are inclusive epoch ms; `device` matches exactly, ignoring case. */
export interface StatsFilter {
  userId: string;
  from?: number | undefined;
  to?: number | undefined;
  device?: string | undefined;
}

export interface RankedItem {
  id: string;
  plays: number;
  listeningMs: number;
  lastPlayedAt: number;
}

export interface RankedTrack extends RankedItem {
  skips: number;
}

export interface RankedGenre {
  genre: string;
  plays: number;
  listeningMs: number;
  lastPlayedAt: number;
}

export interface LastPlayed {
  id: string;
  lastPlayedAt: number;
  plays: number;
}

export interface ActivitySums {
  start: number;
  plays: number;
  skips: number;
  listeningMs: number;
}

/** A listener's all-time plays of an item and when they last played it (epoch ms). */
export interface PlayCount {
  plays: number;
  lastPlayedAt: number;
}
