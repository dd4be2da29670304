import type { Api } from './api.js';
import type { ActivityPoint } from './charts.js';
import { previousPeriod, rangeQuery, stepFor, type RangeKind, type Step } from './format.js';

import type {
  DevicePlays,
  Heatmap,
  HouseholdFacts,
  ListeningTime,
  Member,
  RecentPlay,
  StatsRef,
  TopArtist,
  TopGenre as ApiTopGenre,
  TopTrack as ApiTopTrack,
} from '../server/contract/stats.js';

export type { DevicePlays, ListeningTime, Member, RecentPlay };

/**
 * What the statistics views fetch (the API's shapes, server/contract/stats.ts, as far as the views
 * read them), and how "Everyone" is composed from the per-person reads.
 */
export type Ref = StatsRef;
export type TopTrack = Pick<ApiTopTrack, 'id' | 'name' | 'plays' | 'listeningMs' | 'artists' | 'album'>;
/** An album or an artist of a `top-*` list (artists: an album's). */
export type TopItem = Pick<TopArtist, 'id' | 'name' | 'plays' | 'listeningMs'> & {
  artists?: Ref[];
  /** A top track's album. */
  album?: Ref | null;
};
export type TopGenre = Pick<ApiTopGenre, 'genre' | 'plays' | 'listeningMs'>;

export interface Selection {
  range: RangeKind;
  from?: string;
  to?: string;
  device?: string;
}

/** The same figures for the period just before, of the same length, and how to name it. */
export interface Previous {
  label: string;
  totalMs: number;
  plays: number;
}

export interface PersonStats {
  time: ListeningTime;
  previous: Previous | null;
  step: Step;
  activity: ActivityPoint[];
  tracks: TopTrack[];
  albums: TopItem[];
  artists: TopItem[];
  genres: TopGenre[];
  heatmap: number[][];
  recent: RecentPlay[];
}

/** A date alone is local midnight, as the server reads it; anything else as written. */
export function parseLocal(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match
    ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime()
    : Date.parse(value);
}

/** The chart's span: from the range's start, or for all time from the first play. */
function span(
  dates: { gtDateTime?: string; ltDateTime: string },
  first: string | null,
): { from: string | null; step: Step } {
  const from = dates.gtDateTime ?? first;
  if (from === null) return { from: null, step: 'day' };
  return { from, step: stepFor(parseLocal(from), parseLocal(dates.ltDateTime)) };
}

export async function loadPerson(
  api: Api,
  userId: string,
  selection: Selection,
  now = new Date(),
): Promise<PersonStats> {
  const dates = rangeQuery(selection.range, now, selection);
  const query = { userId, device: selection.device, ...dates };
  const top = { ...query, count: 10 };
  const before = previousPeriod(selection.range, now, selection);
  const [time, previousTime] = await Promise.all([
    api.json<ListeningTime>('/api/stats/listening-time', { query }),
    before
      ? api.json<ListeningTime>('/api/stats/listening-time', { query: { ...query, ...before.query } })
      : Promise.resolve(null),
  ]);
  const previous = before && previousTime && { label: before.label, ...pick(previousTime) };
  const { from, step } = span(dates, time.firstPlayedAt);
  const [activity, tracks, albums, artists, genres, heat, recent] = await Promise.all([
    from === null
      ? Promise.resolve([])
      : api.json<ActivityPoint[]>('/api/stats/activity', { query: { ...query, gtDateTime: from, step } }),
    api.json<TopTrack[]>('/api/stats/top-tracks', { query: top }),
    api.json<TopItem[]>('/api/stats/top-albums', { query: top }),
    api.json<TopItem[]>('/api/stats/top-artists', { query: top }),
    api.json<TopGenre[]>('/api/stats/top-genres', { query: top }),
    api.json<Heatmap>('/api/stats/heatmap', { query }),
    api.json<RecentPlay[]>('/api/stats/recent-tracks', {
      query: { userId, device: selection.device, count: 50 },
    }),
  ]);
  return { time, previous, step, activity, tracks, albums, artists, genres, heatmap: heat.cells, recent };
}

const pick = ({ totalMs, plays }: ListeningTime) => ({ totalMs, plays });

export interface PersonShare {
  member: Member;
  time: ListeningTime;
}

export interface SharedFavourite {
  id: string;
  name: string;
  artists: string;
  people: string[];
  plays: number;
}

export interface HouseholdStats {
  people: PersonShare[];
  hidden: Member[];
  totalMs: number;
  plays: number;
  previous: Previous | null;
  /** Days anyone listened and artists new to the household (the server's, not a sum). */
  facts: HouseholdFacts;
  step: Step;
  activity: ActivityPoint[];
  heatmap: number[][];
  genres: TopGenre[];
  favourites: SharedFavourite[];
}

/**
 * "Everyone": each member whose statistics the caller may read, read one by one with the same
 * range, then added up. Members who keep theirs private are listed by name only.
 */
export async function loadHousehold(
  api: Api,
  members: Member[],
  selection: Selection,
  now = new Date(),
): Promise<HouseholdStats> {
  const dates = rangeQuery(selection.range, now, selection);
  const visible = members.filter((member) => member.visible);
  const before = previousPeriod(selection.range, now, selection);
  const [times, previousTimes, facts] = await Promise.all([
    Promise.all(
      visible.map((member) =>
        api.json<ListeningTime>('/api/stats/listening-time', { query: { userId: member.id, ...dates } }),
      ),
    ),
    before
      ? Promise.all(
          visible.map((member) =>
            api.json<ListeningTime>('/api/stats/listening-time', {
              query: { userId: member.id, ...before.query },
            }),
          ),
        )
      : Promise.resolve(null),
    api.json<HouseholdFacts>('/api/stats/household-facts', { query: { ...dates } }),
  ]);
  const firsts = times
    .map((time) => time.firstPlayedAt)
    .filter((first): first is string => first !== null)
    .sort();
  const { from, step } = span(dates, firsts[0] ?? null);
  const perPerson = await Promise.all(
    visible.map(async (member) => {
      const query = { userId: member.id, ...dates };
      const [activity, heat, tracks, genres] = await Promise.all([
        from === null
          ? Promise.resolve([] as ActivityPoint[])
          : api.json<ActivityPoint[]>('/api/stats/activity', { query: { ...query, gtDateTime: from, step } }),
        api.json<Heatmap>('/api/stats/heatmap', { query }),
        api.json<TopTrack[]>('/api/stats/top-tracks', { query: { ...query, count: 50 } }),
        api.json<TopGenre[]>('/api/stats/top-genres', { query: { ...query, count: 50 } }),
      ]);
      return { member, activity, heat: heat.cells, tracks, genres };
    }),
  );
  const activity: ActivityPoint[] = (perPerson[0]?.activity ?? []).map((point) => ({
    ...point,
    plays: 0,
    listeningMs: 0,
  }));
  const heatmap = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  const genres = new Map<string, TopGenre>();
  const favourites = new Map<string, SharedFavourite>();
  for (const person of perPerson) {
    person.activity.forEach((point, i) => {
      const sum = activity[i];
      if (!sum) return;
      sum.plays += point.plays;
      sum.listeningMs += point.listeningMs;
    });
    person.heat.forEach((row, day) => row.forEach((value, hour) => (heatmap[day]![hour]! += value)));
    for (const genre of person.genres) {
      const key = genre.genre.toLowerCase();
      const sum = genres.get(key) ?? { genre: genre.genre, plays: 0, listeningMs: 0 };
      sum.plays += genre.plays;
      sum.listeningMs += genre.listeningMs;
      genres.set(key, sum);
    }
    for (const track of person.tracks) {
      const entry = favourites.get(track.id) ?? {
        id: track.id,
        name: track.name ?? 'unknown track',
        artists: track.artists.map((artist) => artist.name ?? 'unknown artist').join(', '),
        people: [],
        plays: 0,
      };
      entry.people.push(person.member.username);
      entry.plays += track.plays;
      favourites.set(track.id, entry);
    }
  }
  // A wall display (Pass) is not a person, and someone who played nothing in the range has no bar.
  const people = visible
    .map((member, i) => ({ member, time: times[i]! }))
    .filter(({ member, time }) => member.role !== 'Pass' && time.plays > 0);
  return {
    people: people.sort((a, b) => b.time.totalMs - a.time.totalMs || b.time.plays - a.time.plays),
    hidden: members.filter((member) => !member.visible),
    totalMs: times.reduce((sum, time) => sum + time.totalMs, 0),
    plays: times.reduce((sum, time) => sum + time.plays, 0),
    previous:
      before && previousTimes
        ? {
            label: before.label,
            totalMs: previousTimes.reduce((sum, time) => sum + time.totalMs, 0),
            plays: previousTimes.reduce((sum, time) => sum + time.plays, 0),
          }
        : null,
    facts,
    step,
    activity,
    heatmap,
    genres: [...genres.values()]
      .sort((a, b) => b.plays - a.plays || a.genre.localeCompare(b.genre))
      .slice(0, 10),
    favourites: [...favourites.values()]
      .filter((favourite) => favourite.people.length > 1)
      .sort((a, b) => b.people.length - a.people.length || b.plays - a.plays || a.name.localeCompare(b.name))
      .slice(0, 10),
  };
}
