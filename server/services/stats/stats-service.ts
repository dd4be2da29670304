import { isoUtc, MINUTE_MS, type Clock } from '../../clock.js';
import type {
  ActivityStep,
  DevicePlays,
  Heatmap,
  HouseholdFacts,
  ListeningTime,
  LogResult,
  Member,
  RecentItem,
  RecentKind,
  RecentOf,
  StatsRef,
  TopKind,
  TopOf,
} from '../../contract/stats.js';
import { isValidId } from '../../domain/ids.js';
import { accountOf, canReadStats, type Principal } from '../../domain/user.js';
import { badRequest, invalidParameter, notFound, unauthorized } from '../../errors.js';
import type { PlayLogEntry } from '../../domain/play.js';
import type { LibraryService } from '../library-service.js';
import type { PlayStore, UsersStore } from '../../domain/ports.js';
import { DeviceLimit } from './device-limit.js';
import { libraryNames, StatsNames, type NamesSource } from './stats-names.js';
import { logEntryFor } from './log-entry.js';
import { devicesOf, heatmapOf, playSpanOf } from './reads/play-patterns.js';
import * as facts from './reads/period-facts.js';
import type { LastPlayed, PlayCount, RankedItem, StatsFilter } from './reads/results.js';
import type { StatsIndex } from './stats-index.js';
import type { TopLists } from './reads/top-lists.js';
import { recentRanks, type RankedList } from './sums/user-tallies.js';

/** A log-play or log-skip request, validated. */
export interface LogRequest {
  id: string;
  device?: string | undefined;
  dateTime?: number | undefined;
}

export interface ReadRequest {
  userId?: string | undefined;
  device?: string | undefined;
  gtDateTime?: number | undefined;
  ltDateTime?: number | undefined;
  page: number;
  count: number;
}

/** How far in the future a client's clock may run before its dateTime is refused. */
const FUTURE_TOLERANCE_MS = 5 * MINUTE_MS;
/** The most steps an activity chart may have. */
const MAX_ACTIVITY_STEPS = 1000;

/**
 * Play statistics (docs/API.md, Statistics). Writes go to the append-only play log and, once durable, into the
 * in-memory index that answers every read.
 */
export class StatsService {
  /** Logs being written, by retry key, so a retry racing its original is still recorded once. */
  private readonly inFlight = new Map<string, Promise<PlayLogEntry>>();

  constructor(
    private readonly playLog: PlayStore,
    private readonly index: StatsIndex,
    private readonly library: LibraryService,
    private readonly users: UsersStore,
    private readonly clock: Clock,
    /** Keeps the listening history's de-duplication keys current (./listen-log.ts). */
    private readonly listens?: { note(entry: PlayLogEntry): void | Promise<void> },
    /** The names devices are logged under; shared with the listening history's writer. */
    private readonly deviceLimit: DeviceLimit = new DeviceLimit(index),
  ) {
    const names = libraryNames(library);
    this.names = new StatsNames(() => this.standIn ?? names, index);
  }

  /**
   * Names the reads' items from `source` (a saved view of the library) until `useLibraryNames`:
   * statistics answered before the library is read.
   */
  nameFrom(source: NamesSource): void {
    this.standIn = source;
  }

  /** The library is read: the reads name their items from it again. */
  useLibraryNames(): void {
    this.standIn = undefined;
  }

  private standIn: NamesSource | undefined;

  /** Names of what the reads list: the library's, else what the plays recorded. */
  private readonly names: StatsNames;

  async log(caller: Principal, type: 'play' | 'skip', request: LogRequest): Promise<LogResult> {
    const userId = accountOf(caller);
    const now = this.clock.now();
    if (request.dateTime !== undefined && request.dateTime > now + FUTURE_TOLERANCE_MS) {
      throw invalidParameter('dateTime', "Parameter 'dateTime' is more than 5 minutes in the future");
    }
    const track = this.library.track(request.id);
    const at = request.dateTime ?? now;
    const explicit = request.dateTime !== undefined;
    const key = `${userId}\u0000${track.id}\u0000${type}\u0000${at}`;
    const existing = explicit
      ? (this.index.findRetry(userId, track.id, type, at) ?? (await this.inFlight.get(key)))
      : undefined;
    if (existing) return logged(existing);

    const entry = logEntryFor(this.library, track, {
      userId,
      type,
      at,
      device: this.deviceLimit.nameFor(userId, request.device ?? null),
      explicitAt: explicit,
    });
    // The log hands the entry to the index as it becomes durable (openStoreWithIndex).
    // Durable, then noted (the history's keys, the forwarding's outbox) before the answer.
    const write = this.playLog.append(entry).then(async () => {
      await this.listens?.note(entry);
      return entry;
    });
    if (explicit) this.inFlight.set(key, write);
    try {
      return logged(await write);
    } finally {
      if (explicit) this.inFlight.delete(key);
    }
  }

  listeningTime(caller: Principal, request: ReadRequest): Promise<ListeningTime> {
    return this.read(this.rangedFilter(caller, request), (filter) => this.listeningOf(filter, request), []);
  }

  private listeningOf(filter: StatsFilter, request: ReadRequest): ListeningTime {
    const { totalMs, plays } = this.index.listeningTime(filter);
    const span = playSpanOf(this.index, filter);
    return {
      userId: filter.userId,
      totalMs,
      plays,
      from: request.gtDateTime === undefined ? null : isoUtc(request.gtDateTime),
      to: request.ltDateTime === undefined ? null : isoUtc(request.ltDateTime),
      firstPlayedAt: span.first === null ? null : isoUtc(span.first),
      lastPlayedAt: span.last === null ? null : isoUtc(span.last),
      daysListened: facts.daysListenedOf(this.index, filter),
      newArtists: facts.namedCount(facts.newArtistIdsOf(this.index, filter), this.names.artistName),
    };
  }

  /** Everyone's headline figures over the people the caller may read (a Pass is not a person). */
  async householdFacts(caller: Principal, request: ReadRequest): Promise<HouseholdFacts> {
    accountOf(caller);
    const people = [...this.users.list()].flatMap((user) =>
      user.role !== 'Pass' && canReadStats(caller, user) ? [user.id] : [],
    );
    const range = checkedRange(request);
    // Every listener's first plays per artist: right after a start, made by their settling in
    // steps (StatsIndex.settleLeft) rather than all at once by this read.
    await this.index.settleLeft();
    return facts.householdFactsOf(this.index, people, range, this.names.artistName);
  }

  /**
   * Every account, and whether the caller may read its statistics: their own, anyone's for an
   * Admin, and every account that keeps `publicStats` on.
   */
  members(caller: Principal): Member[] {
    const self = accountOf(caller);
    return [...this.users.list()]
      .sort((a, b) => a.username.localeCompare(b.username, 'en', { sensitivity: 'base' }))
      .map((user) => ({
        id: user.id,
        username: user.username,
        role: user.role,
        self: user.id === self,
        publicStats: user.publicStats,
        visible: canReadStats(caller, user),
      }));
  }

  /** The devices a user played on, all time, with their plays. */
  devices(caller: Principal, request: Pick<ReadRequest, 'userId'>): Promise<DevicePlays[]> {
    return devicesOf(this.index, this.allTimeFilter(caller, request));
  }

  /** Plays per weekday and hour in a range. */
  async heatmap(caller: Principal, request: ReadRequest): Promise<Heatmap> {
    const filter = this.rangedFilter(caller, request);
    return { userId: filter.userId, cells: await heatmapOf(this.index, filter) };
  }

  /** The time of a user's latest play, for the Admin's user list; null before the first. */
  lastActivity(userId: string): string | null {
    const latest = this.index.recentPlays({ userId }, 0, 1)[0];
    return latest ? isoUtc(latest.at) : null;
  }

  top<K extends TopKind>(caller: Principal, kind: K, request: ReadRequest): Promise<TopOf[K][]> {
    return this.read(this.rangedFilter(caller, request), (filter) => this.topOf(filter, kind, request), [
      kind,
    ]);
  }

  private topOf<K extends TopKind>(filter: StatsFilter, kind: K, request: ReadRequest): TopOf[K][] {
    const offset = request.page * request.count;
    const read: { [P in TopKind]: () => TopLists[P] } = {
      tracks: () => this.index.topTracks(filter, offset, request.count),
      albums: () => this.index.topAlbums(filter, offset, request.count),
      artists: () => this.index.topArtists(filter, offset, request.count),
      genres: () => this.index.topGenres(filter, offset, request.count),
    };
    return this.named(kind, read[kind](), offset + 1);
  }

  /**
   * The first `count` of every top list of a range from one scan of its rows, not named yet: for a
   * caller that merges several users' lists and names only what it keeps (`named`).
   */
  tops(caller: Principal, request: ReadRequest): Promise<TopLists> {
    return this.read(this.rangedFilter(caller, request), (filter) => this.index.tops(filter, request.count));
  }

  /**
   * The most played tracks, albums or artists of a range as ids and numbers, not named: for callers
   * that order by plays (Subsonic's album lists and similar artists, the Listen view's orders).
   */
  ranked(
    caller: Principal,
    kind: 'tracks' | 'albums' | 'artists',
    request: ReadRequest,
  ): Promise<RankedItem[]> {
    return this.read(
      this.rangedFilter(caller, request),
      (filter) => {
        const offset = request.page * request.count;
        if (kind === 'tracks') return this.index.topTracks(filter, offset, request.count);
        if (kind === 'albums') return this.index.topAlbums(filter, offset, request.count);
        return this.index.topArtists(filter, offset, request.count);
      },
      [kind],
    );
  }

  /** Ranked items of a top list as the top-* reads answer them, the first at rank `firstRank`. */
  named<K extends TopKind>(kind: K, items: TopLists[K], firstRank = 1): TopOf[K][] {
    return this.names.ranked(kind, items, firstRank);
  }

  recent<K extends RecentKind>(caller: Principal, kind: K, request: ReadRequest): Promise<RecentOf[K][]> {
    // Recent lists take no date filters (docs/API.md, Statistics).
    const filter = this.allTimeFilter(caller, request);
    return this.read(filter, (f) => this.recentOf(f, kind, request), recentRanks(kind));
  }

  private recentOf<K extends RecentKind>(filter: StatsFilter, kind: K, request: ReadRequest): RecentOf[K][] {
    const offset = request.page * request.count;
    const named = (items: LastPlayed[], ref: (id: string) => StatsRef): RecentItem[] =>
      items.map((item) => ({
        id: item.id,
        name: ref(item.id).name,
        lastPlayedAt: isoUtc(item.lastPlayedAt),
        plays: item.plays,
      }));
    const read: { [P in RecentKind]: () => RecentOf[P][] } = {
      tracks: () =>
        this.index.recentPlays(filter, offset, request.count).map((entry) => ({
          id: entry.id,
          playedAt: isoUtc(entry.at),
          device: entry.device,
          track: this.names.track(entry.trackId, entry),
        })),
      albums: () =>
        named(this.index.recentAlbums(filter, offset, request.count), (id) => this.names.album(id)),
      artists: () =>
        named(this.index.recentArtists(filter, offset, request.count), (id) => this.names.artist(id)),
    };
    return read[kind]();
  }

  activity(caller: Principal, request: ReadRequest & { step: 'day' | 'week' | 'month' }): ActivityStep[] {
    const filter = this.rangedFilter(caller, request);
    const to = request.ltDateTime ?? this.clock.now();
    const from = request.gtDateTime ?? to - 30 * 24 * 60 * MINUTE_MS;
    const steps = this.index.activity({ ...filter, from, to }, request.step, MAX_ACTIVITY_STEPS + 1);
    if (steps.length > MAX_ACTIVITY_STEPS) {
      throw badRequest(
        'too_many_steps',
        `At most ${MAX_ACTIVITY_STEPS} steps; choose a shorter range or a longer step`,
      );
    }
    return steps.map((step) => ({
      start: isoUtc(step.start),
      plays: step.plays,
      skips: step.skips,
      listeningMs: step.listeningMs,
    }));
  }

  /** Whether the caller may read this user's statistics; false for an unknown user too. */
  mayRead(caller: Principal, userId: string): boolean {
    accountOf(caller);
    const user = isValidId(userId) ? this.users.findById(userId) : undefined;
    return user !== undefined && canReadStats(caller, user);
  }

  /**
   * A user's all-time plays and latest play (epoch ms) per track or album with any play, as numbers
   * for the Subsonic adapter's play counts; checked against the privacy rule.
   */
  playCounts(caller: Principal, kind: 'tracks' | 'albums', userId?: string): Map<string, PlayCount> {
    return this.index.playCounts(this.readableUser(caller, userId), kind);
  }

  /**
   * Resolves once every listener a start left to settle is settled (at once when they are), taking
   * their settling over with a read's turns. For answers that look play counts up while they are
   * made (Subsonic's): an unsettled listener's all-time sums would otherwise be made there, at once.
   */
  listenersSettled(): Promise<void> {
    return this.index.settleLeft();
  }

  /**
   * The same figures as playCounts, one track or album at a time: what a page of a few hundred
   * items needs, whatever the number the user ever played.
   */
  playCountLookup(
    caller: Principal,
    kind: 'tracks' | 'albums',
    userId?: string,
  ): (id: string) => PlayCount | undefined {
    return this.index.playCountLookup(this.readableUser(caller, userId), kind);
  }

  /**
   * The user whose statistics a caller asks for (default: the caller), checked against the privacy
   * rule (canReadStats). An unknown user is a 404 for every role, so the page can tell "no such
   * person" from "private".
   */
  readableUser(caller: Principal, userId: string | undefined): string {
    const self = accountOf(caller);
    const id = userId ?? self;
    const user = isValidId(id) ? this.users.findById(id) : undefined;
    if (!user) throw notFound('user_not_found', `User '${id}' not found`);
    if (!canReadStats(caller, user)) {
      throw unauthorized('stats_private', `${user.username} keeps their listening statistics private`);
    }
    return id;
  }

  /**
   * Runs a read once what it needs and would make at once (a device's all-time sums, a heavy
   * listener's row marks, the rankings it pages: `ranks`, all unless it says) is made, a slice at a
   * time, giving other requests their turns (StatsIndex.prepare). Every read of a range or a device
   * goes through here, whoever asks.
   */
  private async read<T>(
    filter: StatsFilter,
    answer: (filter: StatsFilter) => T,
    ranks?: readonly RankedList[],
  ): Promise<T> {
    await this.index.prepare(filter, ranks);
    return answer(filter);
  }

  /** A read over the request's range (gtDateTime to ltDateTime) of a user the caller may read. */
  private rangedFilter(caller: Principal, request: ReadRequest): StatsFilter {
    const userId = this.readableUser(caller, request.userId);
    return { userId, ...checkedRange(request), device: request.device };
  }

  /** An all-time read (the reads that take no dates) of a user the caller may read. */
  private allTimeFilter(caller: Principal, request: Pick<ReadRequest, 'userId' | 'device'>): StatsFilter {
    return {
      userId: this.readableUser(caller, request.userId),
      from: undefined,
      to: undefined,
      device: request.device,
    };
  }
}

/** A request's range; refused when it ends before it starts. */
function checkedRange(request: Pick<ReadRequest, 'gtDateTime' | 'ltDateTime'>) {
  const { gtDateTime: from, ltDateTime: to } = request;
  if (from !== undefined && to !== undefined && from > to) {
    throw invalidParameter('gtDateTime', "Parameter 'gtDateTime' is later than 'ltDateTime'");
  }
  return { from, to };
}

function logged(entry: PlayLogEntry): LogResult {
  return { logged: true, id: entry.id, at: isoUtc(entry.at) };
}
