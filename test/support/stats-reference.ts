import type { PlayLogEntry } from '../../server/domain/play.js';
import type { StatsFilter } from '../../server/services/stats/reads/results.js';

/**
 * The naive model the stats engine's property tests compare it with: filter the log, sum per key,
 * sort. Slow and obviously right.
 */
export interface ReferenceSums {
  id: string;
  plays: number;
  skips: number;
  listeningMs: number;
  lastPlayedAt: number;
}

/** Whether a log entry is in the filter's selection; `ranged` false ignores its dates. */
export function matchesFilter(e: PlayLogEntry, f: StatsFilter, ranged = true): boolean {
  if (e.userId !== f.userId) return false;
  if (ranged && f.from !== undefined && e.at < f.from) return false;
  if (ranged && f.to !== undefined && e.at > f.to) return false;
  if (f.device !== undefined && e.device?.toLowerCase() !== f.device.toLowerCase()) return false;
  return true;
}

/** Each key's sums over the selection, most played first (then latest, then by id); unplayed keys left out. */
export function referenceTop(
  entries: PlayLogEntry[],
  f: StatsFilter,
  keys: (e: PlayLogEntry) => string[],
): ReferenceSums[] {
  const groups = new Map<string, ReferenceSums>();
  for (const e of entries.filter((x) => matchesFilter(x, f))) {
    for (const key of new Set(keys(e))) {
      const g = groups.get(key) ?? { id: key, plays: 0, skips: 0, listeningMs: 0, lastPlayedAt: -Infinity };
      groups.set(key, g);
      if (e.type === 'skip') {
        g.skips += 1;
      } else {
        g.plays += 1;
        g.listeningMs += e.durationMs;
        g.lastPlayedAt = Math.max(g.lastPlayedAt, e.at);
      }
    }
  }
  return [...groups.values()]
    .filter((g) => g.plays > 0)
    .sort((a, b) => b.plays - a.plays || b.lastPlayedAt - a.lastPlayedAt || (a.id < b.id ? -1 : 1));
}

/** A play's genres as the engine counts them: trimmed, lower case, empty ones dropped. */
export const genreKeys = (e: PlayLogEntry) =>
  e.genres.map((g) => g.trim().toLowerCase()).filter((g) => g !== '');
