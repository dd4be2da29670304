import type { Clock } from '../../clock.js';
import { accountOf, type Principal } from '../../domain/user.js';
import { invalidParameter } from '../../errors.js';
import type { StatsService } from '../stats/stats-service.js';
import type { LogRowsSource } from '../stats/listen-log.js';
import { forEachArtistPlay, hasPlay } from '../stats/log-rows.js';
import { LISTEN_MINIMUM_TS } from './parsers/listenbrainz.js';
import {
  emptyTally,
  longestStreak,
  mostPlayedDay,
  tallyYear,
  topTrackOfADay,
  YearCalendar,
} from './year-calendar.js';

type TopKind = 'tracks' | 'albums' | 'artists' | 'genres';
/** An item of one user's ranking, as StatsService.top answers. */
type Ranked = {
  id?: string;
  genre?: string;
  name?: string | null;
  artists?: Array<{ id: string; name: string | null }>;
  plays: number;
  listeningMs: number;
  lastPlayedAt: string;
};

const TOP = 5;
/** Per member when a household's rankings are merged: enough that a household's top 5 is exact in practice. */
const MERGE_DEPTH = 200;
const NEW_ARTISTS_LISTED = 10;
const FIRST_YEAR = new Date(LISTEN_MINIMUM_TS * 1000).getFullYear();

const named = (item: Ranked & { rank: number }) => ({
  rank: item.rank,
  id: item.id ?? '',
  name: item.name ?? null,
  plays: item.plays,
  listeningMs: item.listeningMs,
});

export interface Member {
  id: string;
  publicStats: boolean;
}

/**
 * A year of listening for one user or the household (docs/API.md, Year in review): one pass over
 * the year's logs of each member (stats/log-rows.ts) for the figures by month, hour and day; the
 * statistics reads for the rankings and for the artists heard before the year.
 */
export class YearInReviewService {
  constructor(
    private readonly stats: StatsService,
    private readonly rows: LogRowsSource,
    private readonly members: () => readonly Member[],
    private readonly track: (id: string) => { name: string; artistIds: string[] } | undefined,
    private readonly artistName: (id: string) => string | null,
    private readonly clock: Clock,
  ) {}

  review(caller: Principal, request: { userId?: string | undefined; year: number; household: boolean }) {
    const thisYear = new Date(this.clock.now()).getFullYear();
    if (request.year < FIRST_YEAR || request.year > thisYear)
      throw invalidParameter('year', `Parameter 'year' must be between ${FIRST_YEAR} and ${thisYear}`);
    const userIds = request.household
      ? this.visibleMembers(caller)
      : [this.stats.readableUser(caller, request.userId)];
    const calendar = new YearCalendar(request.year);
    const tally = emptyTally(calendar);
    for (const userId of userIds) tallyYear(tally, calendar, this.rows.rowsOf(userId));
    const range = { gtDateTime: calendar.from, ltDateTime: calendar.to };
    const top = (kind: TopKind) =>
      this.top(caller, userIds, kind, range, userIds.length > 1 ? MERGE_DEPTH : TOP);
    const busiest = mostPlayedDay(tally);
    const streak = longestStreak(tally);
    const dayTop = topTrackOfADay(tally);
    return {
      year: request.year,
      household: request.household,
      userIds,
      years: this.yearsWithPlays(userIds, thisYear),
      totalMs: tally.totalMs,
      plays: tally.plays,
      skips: tally.skips,
      skipRate: tally.plays + tally.skips === 0 ? 0 : tally.skips / (tally.plays + tally.skips),
      topTracks: top('tracks').map((t) => ({ ...named(t), artists: t.artists ?? [] })),
      topAlbums: top('albums').map(named),
      topArtists: top('artists').map(named),
      topGenres: top('genres').map((g) => ({
        rank: g.rank,
        genre: g.genre ?? '',
        plays: g.plays,
        listeningMs: g.listeningMs,
      })),
      months: tally.monthPlays.map((plays, i) => ({ month: i + 1, plays, listeningMs: tally.monthMs[i]! })),
      hours: tally.hourPlays.map((plays, hour) => ({ hour, plays })),
      mostPlayedDay:
        busiest === null ? null : { date: calendar.dateOf(busiest), plays: tally.dayPlays[busiest]! },
      longestStreak:
        streak === null
          ? null
          : {
              days: streak.last - streak.first + 1,
              from: calendar.dateOf(streak.first),
              to: calendar.dateOf(streak.last),
            },
      topTrackOfADay:
        dayTop === null
          ? null
          : { date: calendar.dateOf(dayTop.day), plays: dayTop.plays, track: this.trackRef(dayTop.trackId) },
      newArtists: this.newArtists(userIds, calendar),
    };
  }

  /** Everyone whose statistics the caller may see: all for an Admin, else themselves and public ones. */
  private visibleMembers(caller: Principal): string[] {
    const self = accountOf(caller);
    return this.members()
      .filter((m) => caller.role === 'Admin' || m.id === self || m.publicStats)
      .map((m) => m.id)
      .sort();
  }

  private top(
    caller: Principal,
    userIds: string[],
    kind: TopKind,
    range: { gtDateTime: number; ltDateTime: number },
    depth: number,
  ) {
    const lists = userIds.map(
      (userId) => this.stats.top(caller, kind, { userId, ...range, page: 0, count: depth }) as Ranked[],
    );
    if (lists.length === 1) return lists[0]!.slice(0, TOP).map((item, i) => ({ ...item, rank: i + 1 }));
    const merged = new Map<string, Ranked>();
    for (const item of lists.flat()) {
      const key = item.id ?? String(item.genre).trim().toLowerCase();
      const seen = merged.get(key);
      if (!seen) merged.set(key, { ...item });
      else {
        seen.plays += item.plays;
        seen.listeningMs += item.listeningMs;
        if (item.lastPlayedAt > seen.lastPlayedAt) seen.lastPlayedAt = item.lastPlayedAt;
      }
    }
    return [...merged.entries()]
      .sort(
        ([ka, a], [kb, b]) =>
          b.plays - a.plays ||
          (b.lastPlayedAt < a.lastPlayedAt ? -1 : b.lastPlayedAt > a.lastPlayedAt ? 1 : 0) ||
          (ka < kb ? -1 : 1),
      )
      .slice(0, TOP)
      .map(([, item], i) => ({ ...item, rank: i + 1 }));
  }

  /**
   * Artists played in the year that none of the members had played before it: one pass over the
   * year's rows counting plays per artist, one over the earlier rows marking the artists heard.
   */
  private newArtists(userIds: string[], calendar: YearCalendar) {
    const inYear = new Map<number, number>();
    let ids: readonly string[] = [];
    for (const userId of userIds) {
      const rows = this.rows.rowsOf(userId);
      if (rows) ids = rows.artistIds;
      forEachArtistPlay(rows, calendar.from, calendar.to, (artist) =>
        inYear.set(artist, (inYear.get(artist) ?? 0) + 1),
      );
    }
    const heardBefore = new Uint8Array(ids.length);
    for (const userId of userIds) {
      forEachArtistPlay(
        this.rows.rowsOf(userId),
        undefined,
        calendar.from - 1,
        (artist) => (heardBefore[artist] = 1),
      );
    }
    const fresh = [...inYear]
      .filter(([artist]) => heardBefore[artist] !== 1)
      .map(([artist, plays]) => ({ id: ids[artist]!, plays }))
      .sort((a, b) => b.plays - a.plays || (a.id < b.id ? -1 : 1));
    return {
      count: fresh.length,
      items: fresh
        .slice(0, NEW_ARTISTS_LISTED)
        .map((a) => ({ id: a.id, name: this.artistName(a.id), plays: a.plays })),
    };
  }

  /** The years with a play of any of the users, latest first (a binary search per user and year). */
  private yearsWithPlays(userIds: string[], thisYear: number): number[] {
    const years: number[] = [];
    for (let year = thisYear; year >= FIRST_YEAR; year -= 1) {
      const from = new Date(year, 0, 1).getTime();
      const to = new Date(year + 1, 0, 1).getTime() - 1;
      if (userIds.some((userId) => hasPlay(this.rows.rowsOf(userId), from, to))) years.push(year);
    }
    return years;
  }

  private trackRef(id: string) {
    const track = this.track(id);
    return {
      id,
      name: track?.name ?? null,
      artists: (track?.artistIds ?? []).map((artistId) => ({
        id: artistId,
        name: this.artistName(artistId),
      })),
    };
  }
}
