import { nextStep } from '../../domain/dates.js';
import type { MixId } from '../../contract/mixes.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The first year a play may carry (the first scrobble; plays are refused before it). */
const FIRST_YEAR = 2002;

/**
 * How deep each listener's ranking is read before lists are merged and filtered: a mix of 50 then
 * holds the right tracks unless hundreds of a listener's tracks are left out (gone from the
 * library, or played lately for "Forgotten favourites").
 */
export const RANK_DEPTH = 500;

/** The numbers each mix is made with (docs/API.md, Mixes). */
export const MIX_RULES = {
  topMonth: { size: 50 },
  onRepeat: { days: 14, minPlays: 3, size: 25 },
  forgotten: { olderThanDays: 365, quietDays: 183, minPlays: 5, size: 50 },
  household: { size: 50 },
  newToYou: { size: 50 },
  onThisDay: { size: 50 },
} as const;

/** A track's plays in what a mix looks at, and the latest of them (epoch ms). */
export interface RankedTrack {
  id: string;
  plays: number;
  lastPlayedAt: number;
}

/** What the mixes are made from: the statistics index and the library, as small reads. */
export interface MixSource {
  /** A listener's tracks with plays in [from, to] (inclusive), ranked, the first `limit`. */
  topTracks(userId: string, from: number | undefined, to: number | undefined, limit: number): RankedTrack[];
  /** Looks up a listener's latest play of a track (epoch ms), undefined for a track never played. */
  latestPlays(userId: string): (trackId: string) => number | undefined;
  /** Changes whenever a play is added or the library changes: what a made mix is kept by. */
  version(): string;
  /**
   * Makes ahead, a slice at a time, what the reads of a listener's mixes would otherwise make at
   * once (a heavy listener's row marks: StatsIndex.prepare; the library's newest tracks' order).
   */
  prepare(userId: string): Promise<void>;
  /** The library's tracks, the newest files first (then by id). */
  newestTracks(): ReadonlyArray<{ id: string }>;
  hasTrack(id: string): boolean;
}

/** Ranks like the statistics' top lists: plays, then the later latest play, then id. */
function byRank(a: RankedTrack, b: RankedTrack): number {
  return b.plays - a.plays || b.lastPlayedAt - a.lastPlayedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Several ranked lists summed per track (plays added, the latest play kept), then ranked. */
export function merged(lists: ReadonlyArray<readonly RankedTrack[]>): RankedTrack[] {
  if (lists.length === 1) return [...lists[0]!];
  const sums = new Map<string, RankedTrack>();
  for (const list of lists) {
    for (const item of list) {
      const sum = sums.get(item.id);
      if (!sum) sums.set(item.id, { id: item.id, plays: item.plays, lastPlayedAt: item.lastPlayedAt });
      else {
        sum.plays += item.plays;
        sum.lastPlayedAt = Math.max(sum.lastPlayedAt, item.lastPlayedAt);
      }
    }
  }
  return [...sums.values()].sort(byRank);
}

/** The first `size` ids of a ranked list that are in the library and pass `keep`. */
function pick(
  source: MixSource,
  ranked: readonly RankedTrack[],
  size: number,
  keep: (item: RankedTrack) => boolean = () => true,
): string[] {
  const ids: string[] = [];
  for (const item of ranked) {
    if (ids.length === size) break;
    if (keep(item) && source.hasTrack(item.id)) ids.push(item.id);
  }
  return ids;
}

/** The local midnight starting the day of `at`'s date in another year; null when that year lacks it (29 February). */
function sameDayIn(at: number, year: number): number | null {
  const now = new Date(at);
  const day = new Date(year, now.getMonth(), now.getDate());
  day.setFullYear(year);
  return day.getMonth() === now.getMonth() ? day.getTime() : null;
}

/**
 * The tracks of one mix for a set of listeners (one member, or a household) at `now`, in the mix's
 * order: the rules of docs/API.md, Mixes.
 */
export function mixTracks(source: MixSource, id: MixId, listeners: readonly string[], now: number): string[] {
  const top = (from: number | undefined, to: number | undefined) =>
    merged(listeners.map((user) => source.topTracks(user, from, to, RANK_DEPTH)));
  switch (id) {
    case 'mix-top-month': {
      const monthStart = new Date(now);
      monthStart.setDate(1);
      monthStart.setHours(0, 0, 0, 0);
      return pick(source, top(monthStart.getTime(), now), MIX_RULES.topMonth.size);
    }
    case 'mix-on-repeat': {
      const { days, minPlays, size } = MIX_RULES.onRepeat;
      return pick(source, top(now - days * DAY_MS, now), size, (item) => item.plays >= minPlays);
    }
    case 'mix-forgotten': {
      const { olderThanDays, quietDays, minPlays, size } = MIX_RULES.forgotten;
      const quietFrom = now - quietDays * DAY_MS;
      const latest = listeners.map((user) => source.latestPlays(user));
      const playedLately = (trackId: string) =>
        latest.some((latestOf) => (latestOf(trackId) ?? -Infinity) >= quietFrom);
      return pick(
        source,
        top(undefined, now - olderThanDays * DAY_MS),
        size,
        (item) => item.plays >= minPlays && !playedLately(item.id),
      );
    }
    case 'mix-household':
      return pick(source, top(undefined, undefined), MIX_RULES.household.size);
    case 'mix-new': {
      const latest = listeners.map((user) => source.latestPlays(user));
      const ids: string[] = [];
      for (const track of source.newestTracks()) {
        if (ids.length === MIX_RULES.newToYou.size) break;
        if (latest.every((latestOf) => latestOf(track.id) === undefined)) ids.push(track.id);
      }
      return ids;
    }
    case 'mix-on-this-day': {
      const lists: RankedTrack[][] = [];
      for (let year = new Date(now).getFullYear() - 1; year >= FIRST_YEAR; year -= 1) {
        const start = sameDayIn(now, year);
        if (start === null) continue;
        const end = nextStep(start, 'day') - 1;
        for (const user of listeners) lists.push(source.topTracks(user, start, end, RANK_DEPTH));
      }
      return pick(source, merged(lists.filter((list) => list.length > 0)), MIX_RULES.onThisDay.size);
    }
  }
}
