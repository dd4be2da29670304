import type { DevicePlays } from '../../../contract/stats.js';
import { DeviceCounts } from '../columns/kept-counts.js';
import type { StatsFilter } from './results.js';
import type { StatsIndex } from '../stats-index.js';
import { SKIP } from '../columns/user-columns.js';
import { countByWeekHour, WEEK_HOURS } from './week-hours.js';

/**
 * Small reads for the settings page's household view, each one loop over a range of a user's
 * columns (StatsIndex.rowSpan), so the index itself stays the table of its columns: which devices a
 * user plays on, when in the week they listen, and the first and last play of a range.
 */

/**
 * Distinct devices with their plays (skips do not count), most played first, then by name. A range
 * is counted from the rows, a slice of rows per turn of the event loop (StatsIndex.scanSpans); all
 * time, the counts are made so at the first read, then kept current (kept-counts.ts).
 */
export async function devicesOf(index: StatsIndex, filter: StatsFilter): Promise<DevicePlays[]> {
  const deviceNames = index.deviceNames;
  const kept = isAllTime(filter) ? index.keptCounts(filter.userId) : undefined;
  let counts = kept?.devices;
  if (!counts) {
    // Counted per device name (index + 1, 0 for none) first: a loop over two typed arrays.
    let scanned!: DeviceCounts; // made by `start`, afresh at each try
    await index.scanSpans(
      filter,
      () => (scanned = new DeviceCounts(deviceNames.length + 1)),
      ({ device, flags, accept, lo, hi }) => {
        const { logs, plays } = scanned;
        for (let row = lo; row < hi; row += 1) {
          const d = device[row]!;
          if (accept && accept[d] === 0) continue;
          logs[d]! += 1;
          if ((flags[row]! & SKIP) === 0) plays[d]! += 1;
        }
      },
      // Logs added meanwhile fit unless they named a device new since the counts were made.
      () => deviceNames.length + 1 <= scanned.logs.length,
    );
    // Read, never changed, below: kept as it is.
    counts = scanned;
    if (kept) kept.devices = scanned;
  }
  const { logs, plays } = counts;
  // Then the names grouped by their key (case ignored), each shown in its most logged spelling.
  const groups = new Map<string, { plays: number; spellings: Map<string | null, number> }>();
  for (let d = 0; d < logs.length; d += 1) {
    if (logs[d] === 0) continue;
    const name = d === 0 ? null : deviceNames[d - 1]!;
    const key = name === null ? '\u0000' : name.toLowerCase();
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { plays: 0, spellings: new Map() }));
    group.plays += plays[d]!;
    group.spellings.set(name, (group.spellings.get(name) ?? 0) + logs[d]!);
  }
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
 * activity steps: `cells[weekday][hour]`. Counted as `devicesOf` counts.
 */
export async function heatmapOf(index: StatsIndex, filter: StatsFilter): Promise<number[][]> {
  const kept = isAllTime(filter) ? index.keptCounts(filter.userId) : undefined;
  let counts = kept?.weekHours;
  if (!counts) {
    const scanned = new Uint32Array(WEEK_HOURS);
    await index.scanSpans(
      filter,
      () => scanned.fill(0),
      (span) => countByWeekHour(span, scanned),
      () => true,
    );
    // Only read below, into new arrays: kept as it is.
    counts = scanned;
    if (kept) kept.weekHours = scanned;
  }
  const cells = counts;
  return Array.from({ length: 7 }, (_, weekday) =>
    Array.from(cells.subarray(weekday * 24, weekday * 24 + 24)),
  );
}

/** All of a user's logs: what the kept counts count. */
const isAllTime = (f: StatsFilter) => f.from === undefined && f.to === undefined && f.device === undefined;

/** The first and the last play of the filter, epoch ms (null when there is none). */
export function playSpanOf(
  index: StatsIndex,
  filter: StatsFilter,
): { first: number | null; last: number | null } {
  const span = index.rowSpan(filter);
  if (!span) return { first: null, last: null };
  const { at, flags, device, accept } = span;
  const isPlay = (row: number) => (flags[row]! & SKIP) === 0 && (!accept || accept[device[row]!] === 1);
  let lo = span.lo;
  let hi = span.hi - 1;
  while (lo <= hi && !isPlay(lo)) lo += 1;
  if (lo > hi) return { first: null, last: null };
  while (!isPlay(hi)) hi -= 1;
  return { first: at[lo]!, last: at[hi]! };
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
