import { firstHeard } from '../columns/first-heard.js';
import { SKIP } from '../columns/user-columns.js';
import type { StatsFilter } from './results.js';
import type { HouseholdFacts } from '../../../contract/stats.js';
import type { StatsIndex } from '../stats-index.js';

/**
 * Two facts of a range for the statistics' headline, each read from the index without an object per
 * row: on how many days the user listened, and which artists they first heard in it.
 */

/**
 * The local days (the server's time zone, as the activity steps) with at least one play of the
 * filter. The rows are in time order, so a day is counted at its first play and the rest of it
 * skipped with one comparison per row; a Date is made once per day counted.
 */
export function daysListenedOf(index: StatsIndex, filter: StatsFilter): number {
  return daysOf(index, filter, new Set()).size;
}

/** The local days with a play of any of the filters (a household's users): each day once. */
export function daysListenedOfAll(index: StatsIndex, filters: readonly StatsFilter[]): number {
  const days = new Set<number>();
  for (const filter of filters) daysOf(index, filter, days);
  return days.size;
}

/** Adds to `days` the start (epoch ms) of every local day with a play of the filter. */
function daysOf(index: StatsIndex, filter: StatsFilter, days: Set<number>): Set<number> {
  const span = index.rowSpan(filter);
  if (!span) return days;
  const { at, flags, device, accept, lo, hi } = span;
  let dayEnd = -Infinity;
  for (let row = lo; row < hi; row += 1) {
    const t = at[row]!;
    if (t < dayEnd || (flags[row]! & SKIP) !== 0) continue;
    if (accept && accept[device[row]!] !== 1) continue;
    const date = new Date(t);
    days.add(new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime());
    dayEnd = new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime();
  }
  return days;
}

/**
 * The artists whose first play by the user (on any device: hearing an artist for the first time is
 * the listener's, not a device's) lies in the filter's range, by id. From each artist's first play,
 * kept by the index (first-heard.ts): a look per artist, however long the history.
 */
export function newArtistIdsOf(index: StatsIndex, filter: StatsFilter): string[] {
  return newArtistIdsOfAll(index, [filter.userId], filter.from, filter.to);
}

/**
 * The artists none of the users had heard before the range and one of them first heard in it (new
 * to the household): the earliest of their first plays lies in [from, to].
 */
export function newArtistIdsOfAll(
  index: StatsIndex,
  userIds: readonly string[],
  from = -Infinity,
  to = Infinity,
): string[] {
  let earliest: Float64Array | undefined;
  let artistIds: readonly string[] = [];
  for (const userId of userIds) {
    const rows = index.rowsOf(userId);
    if (!rows) continue;
    artistIds = rows.artistIds;
    const first = firstHeard(rows.columns, rows.snapshots.artists);
    if (!earliest || earliest.length < first.length) {
      const grown = new Float64Array(first.length).fill(Infinity);
      if (earliest) grown.set(earliest);
      earliest = grown;
    }
    for (let artist = 0; artist < first.length; artist += 1)
      if (first[artist]! < earliest[artist]!) earliest[artist] = first[artist]!;
  }
  const ids: string[] = [];
  if (!earliest) return ids;
  for (let artist = 0; artist < earliest.length; artist += 1) {
    // Infinity: never heard by these users.
    const heard = earliest[artist]!;
    if (heard !== Infinity && heard >= from && heard <= to) ids.push(artistIds[artist]!);
  }
  return ids;
}

/**
 * Whether an artist's name names someone: files without an artist tag are filed under "Unknown
 * Artist" (or nothing), which nobody discovers.
 */
export function isNamedArtist(name: string | null): boolean {
  return name !== null && name.trim() !== '' && !/^unknown artist$/i.test(name.trim());
}

/** How many of the artists have a name (`name` looks it up): "Unknown Artist" is nobody's discovery. */
export function namedCount(artistIds: readonly string[], name: (id: string) => string | null): number {
  return artistIds.filter((id) => isNamedArtist(name(id))).length;
}

/**
 * Everyone's headline figures that cannot be added up per person, over `people` (the accounts the
 * caller may read): the days anyone listened, and the artists new to all of them.
 */
export function householdFactsOf(
  index: StatsIndex,
  people: readonly string[],
  range: { from?: number | undefined; to?: number | undefined },
  name: (id: string) => string | null,
): HouseholdFacts {
  const { from, to } = range;
  return {
    people: people.length,
    daysListened: daysListenedOfAll(
      index,
      people.map((userId) => ({ userId, from, to })),
    ),
    newArtists: namedCount(newArtistIdsOfAll(index, people, from, to), name),
  };
}
