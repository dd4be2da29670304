import type { Clock } from '../../clock.js';
import { accountOf, canReadStats, type AccountRole, type Principal } from '../../domain/user.js';
import { UNKNOWN_ARTIST } from '../../library/track-entry.js';
import { invalidParameter } from '../../errors.js';
import type { StatsService } from '../stats/stats-service.js';
import type { LogRowsSource } from './listen-log.js';
import { firstPlayIn, hasPlay, markArtistsPlayedUntil } from '../stats/columns/log-rows.js';
import type { TopLists } from '../stats/reads/top-lists.js';
import { LISTEN_MINIMUM_TS } from './parsers/listenbrainz.js';
import { longestStreak, mostPlayedDay, YearCalendar } from './year-calendar.js';
import { YearTally } from './year-tally.js';
import { nextTurn } from '../next-turn.js';

type TopKind = keyof TopLists;
/** An item of one user's top list, not named yet (StatsService.tops). */
type Ranked = TopLists[TopKind][number];

const TOP = 5;
/** Per member when a household's rankings are merged: enough that a household's top 5 is exact in practice. */
const MERGE_DEPTH = 200;
const NEW_ARTISTS_LISTED = 10;
/** Days of a year counted between two turns of the event loop. */
const DAYS_PER_STRETCH = 31;
const FIRST_YEAR = new Date(LISTEN_MINIMUM_TS * 1000).getFullYear();

const named = (item: {
  rank: number;
  id: string;
  name: string | null;
  plays: number;
  listeningMs: number;
}) => ({
  rank: item.rank,
  id: item.id,
  name: item.name,
  plays: item.plays,
  listeningMs: item.listeningMs,
});

export interface Member {
  id: string;
  username: string;
  role: AccountRole;
  publicStats: boolean;
}

/**
 * A year of listening for one user or the household (docs/API.md, Year in review): one pass over
 * the year's rows of every member for the figures by month, hour and day (year-tally.ts), then per
 * member one read of every top list and one of the artists heard before the year. A review gives
 * the event loop back between those reads and every month or so of its year, so no
 * single stretch grows with the number of members. Meanwhile the world may move: a log that arrives may count in some figures and not yet
 * in others, and a member who is removed or hides their statistics makes the review fail as a read
 * of theirs would; the next request sees the new state whole.
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

  async review(
    caller: Principal,
    request: { userId?: string | undefined; year: number; household: boolean },
  ) {
    const thisYear = new Date(this.clock.now()).getFullYear();
    if (request.year < FIRST_YEAR || request.year > thisYear)
      throw invalidParameter('year', `Parameter 'year' must be between ${FIRST_YEAR} and ${thisYear}`);
    const userIds = request.household
      ? this.visibleMembers(caller)
      : [this.stats.readableUser(caller, request.userId)];
    const household = userIds.length > 1;
    const calendar = new YearCalendar(request.year);
    const tally = new YearTally(calendar);
    // The year is counted a month or so at a time, every member's rows of those days: a heavy
    // listener's year counted whole would hold the loop while phones wait.
    for (let first = 0; first < calendar.days; first += DAYS_PER_STRETCH) {
      const rows = userIds.map((userId) => this.rows.rowsOf(userId));
      tally.add(rows, first, Math.min(calendar.days, first + DAYS_PER_STRETCH));
      await nextTurn();
    }
    const range = { gtDateTime: calendar.from, ltDateTime: calendar.to, page: 0 };
    const lists: TopLists[] = [];
    for (const userId of userIds) {
      lists.push(await this.stats.tops(caller, { userId, ...range, count: household ? MERGE_DEPTH : TOP }));
      await nextTurn();
    }
    const newArtists = await this.newArtists(userIds, calendar, tally);
    const top = <K extends TopKind>(kind: K) => this.stats.named(kind, merged(lists.map((l) => l[kind])));
    const busiest = mostPlayedDay(tally.dayPlays);
    const streak = longestStreak(tally.dayPlays);
    const dayTop = tally.dayTop;
    const first = this.firstPlay(userIds, calendar);
    return {
      year: request.year,
      household: request.household,
      userIds,
      years: this.yearsWithPlays(userIds, thisYear),
      totalMs: tally.totalMs,
      plays: tally.plays,
      skips: tally.skips,
      skipRate: tally.plays + tally.skips === 0 ? 0 : tally.skips / (tally.plays + tally.skips),
      topTracks: top('tracks').map((t) => ({ ...named(t), artists: t.artists })),
      topAlbums: top('albums').map(named),
      topArtists: top('artists').map(named),
      topGenres: top('genres').map((g) => ({
        rank: g.rank,
        genre: g.genre,
        plays: g.plays,
        listeningMs: g.listeningMs,
      })),
      months: tally.monthPlays.map((plays, i) => ({ month: i + 1, plays, listeningMs: tally.monthMs[i]! })),
      hours: tally.hourPlays.map((plays, hour) => ({ hour, plays, listeningMs: tally.hourMs[hour]! })),
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
      newArtists,
      firstPlay:
        first === null ? null : { at: new Date(first.at).toISOString(), track: this.trackRef(first.trackId) },
      members: request.household ? this.memberYears(userIds, tally, lists) : [],
    };
  }

  /** The year's first play of any of the users (the smallest track id of plays at the same time). */
  private firstPlay(userIds: string[], calendar: YearCalendar) {
    let first: { at: number; trackId: string } | null = null;
    for (const userId of userIds) {
      const play = firstPlayIn(this.rows.rowsOf(userId), calendar.from, calendar.to);
      if (play && (!first || play.at < first.at || (play.at === first.at && play.trackId < first.trackId)))
        first = play;
    }
    return first;
  }

  /**
   * Each listener of a household's year, most plays first: their plays, time and top artist (never
   * the library's stand-in for a missing artist). Pass accounts (a speaker, a wall display) and
   * members without plays in the year are not people to rank.
   */
  private memberYears(userIds: string[], tally: YearTally, lists: TopLists[]) {
    const accounts = new Map(this.members().map((m) => [m.id, m]));
    return userIds
      .flatMap((userId, i) => {
        const account = accounts.get(userId);
        const plays = tally.memberPlays[i] ?? 0;
        if (!account || account.role === 'Pass' || plays === 0) return [];
        const artist = lists[i]!.artists.find((a) => this.artistName(a.id) !== UNKNOWN_ARTIST);
        return [
          {
            userId,
            username: account.username,
            plays,
            listeningMs: tally.memberMs[i] ?? 0,
            topArtist: artist
              ? { id: artist.id, name: this.artistName(artist.id), plays: artist.plays }
              : null,
          },
        ];
      })
      .sort((a, b) => b.plays - a.plays || (a.username < b.username ? -1 : a.username > b.username ? 1 : 0));
  }

  /** Everyone whose statistics the caller may see: all for an Admin, else themselves and public ones. */
  private visibleMembers(caller: Principal): string[] {
    accountOf(caller);
    return this.members()
      .filter((m) => canReadStats(caller, m))
      .map((m) => m.id)
      .sort();
  }

  /**
   * Artists played in the year that none of the members had played before it: the year's plays per
   * snapshot (from the tally) folded into their artists, and per member the artists of the plays
   * before the year marked (log-rows.ts).
   */
  private async newArtists(userIds: string[], calendar: YearCalendar, tally: YearTally) {
    const rows = userIds.map((userId) => this.rows.rowsOf(userId)).find((r) => r !== undefined);
    if (!rows || tally.plays === 0) return { count: 0, items: [] };
    const ids = rows.artistIds;
    const inYear = new Int32Array(ids.length);
    const played: number[] = [];
    const { start, values } = rows.snapshots.artists;
    for (let s = 0; s < tally.snapshotPlays.length; s += 1) {
      const plays = tally.snapshotPlays[s]!;
      if (plays === 0) continue;
      for (let i = start[s]!; i < start[s + 1]!; i += 1) {
        const artist = values[i]!;
        if (inYear[artist] === 0) played.push(artist);
        inYear[artist]! += plays;
      }
    }
    const heardBefore = new Uint8Array(ids.length);
    for (const userId of userIds) {
      markArtistsPlayedUntil(this.rows.rowsOf(userId), calendar.from - 1, heardBefore);
      await nextTurn();
    }
    const fresh = played
      .filter((artist) => heardBefore[artist] !== 1)
      .map((artist) => ({ id: ids[artist]!, plays: inYear[artist]! }))
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

/**
 * The top five of several users' lists: one user's as it is; a household's summed per item (a genre
 * by its name, ignoring case), ranked like the top-* reads (plays, then the later last play, then
 * the id), each item as the first member's list has it.
 */
function merged<L extends Ranked[]>(lists: L[]): L {
  if (lists.length === 1) return lists[0]!.slice(0, TOP) as L;
  const sums = new Map<string, Ranked>();
  for (const item of lists.flat() as Ranked[]) {
    const key = 'id' in item ? item.id : item.genre.trim().toLowerCase();
    const seen = sums.get(key);
    if (!seen) sums.set(key, { ...item });
    else {
      seen.plays += item.plays;
      seen.listeningMs += item.listeningMs;
      if (item.lastPlayedAt > seen.lastPlayedAt) seen.lastPlayedAt = item.lastPlayedAt;
    }
  }
  return [...sums.entries()]
    .sort(
      ([ka, a], [kb, b]) =>
        b.plays - a.plays || b.lastPlayedAt - a.lastPlayedAt || (ka < kb ? -1 : ka > kb ? 1 : 0),
    )
    .slice(0, TOP)
    .map(([, item]) => item) as L;
}
