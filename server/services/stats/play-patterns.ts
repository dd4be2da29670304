import type { DevicePlays } from '../../contract/stats.js';
import type { StatsFilter } from './results.js';
import type { StatsIndex } from './stats-index.js';

/**
 * Small reads for the settings page's household view, made from StatsIndex.scanRows so the index
 * itself stays the table of its columns: which devices a user plays on, when in the week they
 * listen, and the first and last play of a range.
 */

/** Distinct devices with their plays (skips do not count), most played first, then by name. */
export function devicesOf(index: StatsIndex, filter: StatsFilter): DevicePlays[] {
  const groups = new Map<string, { plays: number; spellings: Map<string | null, number> }>();
  index.scanRows(filter, ({ device, play }) => {
    const key = device === null ? '\u0000' : device.toLowerCase();
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { plays: 0, spellings: new Map() }));
    if (play) group.plays += 1;
    group.spellings.set(device, (group.spellings.get(device) ?? 0) + 1);
  });
  const result = [...groups.values()].map(({ plays, spellings }) => ({
    device: mostFrequent(spellings),
    plays,
  }));
  return result.sort(
    (a, b) =>
      b.plays - a.plays ||
      Number(a.device === null) - Number(b.device === null) ||
      (a.device ?? '').localeCompare(b.device ?? ''),
  );
}

/**
 * Plays per weekday (0 = Monday) and hour of the day, in the server's local time zone like the
 * activity steps: `cells[weekday][hour]`.
 */
export function heatmapOf(index: StatsIndex, filter: StatsFilter): number[][] {
  const cells = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  index.scanRows(filter, ({ at, play }) => {
    if (!play) return;
    const date = new Date(at);
    cells[(date.getDay() + 6) % 7]![date.getHours()]! += 1;
  });
  return cells;
}

/** The first and the last play of the filter, epoch ms (null when there is none). */
export function playSpanOf(
  index: StatsIndex,
  filter: StatsFilter,
): { first: number | null; last: number | null } {
  let first: number | null = null;
  let last: number | null = null;
  index.scanRows(filter, ({ at, play }) => (play ? ((first = at), true) : false));
  index.scanRows(filter, ({ at, play }) => (play ? ((last = at), true) : false), true);
  return { first, last };
}

/** The most frequent spelling; a tie goes to the smallest, as for genres. */
function mostFrequent(spellings: Map<string | null, number>): string | null {
  let best: string | null = null;
  let bestCount = -1;
  for (const [spelling, count] of spellings) {
    if (count > bestCount || (count === bestCount && String(spelling) < String(best))) {
      best = spelling;
      bestCount = count;
    }
  }
  return best;
}
