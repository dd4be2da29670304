import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../server/clock.js';
import type { TrackRecord } from '../../../../server/domain/library.js';
import type { UserRecord } from '../../../../server/domain/user.js';
import { YearInReviewService } from '../../../../server/services/history/year-in-review.js';
import { logEntryFor } from '../../../../server/services/stats/log-entry.js';
import { StatsService } from '../../../../server/services/stats/stats-service.js';
import type { PlayLogEntry } from '../../../../server/domain/play.js';
import { makeUserRecord, principalOf } from '../../../factories/accounts.js';
import { makeLibrary } from '../../../factories/library.js';
import { newTestService } from '../../../fakes/test-service.js';

/**
 * The year in review (one pass over columns, days and hours from precomputed day starts, top lists
 * from one scan, first plays per artist) against a reference that looks at each log on its own with
 * Date: its local year, month, date and hour. Random histories are crowded around the zone's
 * daylight-saving changes and day and hour boundaries, in zones whose days are 23 or 25 hours long,
 * whose midnight may not exist (São Paulo before 2019), whose change is half an hour (Lord Howe),
 * or whose offset is not whole hours (Kolkata).
 */
const library = makeLibrary({
  // The library's stand-in for a missing artist, often played: never a member's top artist.
  artists: ['Unknown Artist', 'Ben', 'Cy', 'Dee', 'Eve', 'Flo', 'Gus'].map((name, i) => ({
    id: `ar${i}`,
    name,
  })),
  albums: [
    { id: 'al0', name: 'First', artistIds: ['ar0'] },
    { id: 'al1', name: 'Second', artistIds: ['ar1'] },
    { id: 'al2', name: 'Third', artistIds: ['ar2', 'ar3'] },
  ],
  tracks: [
    ...Array.from({ length: 14 }, (_, i) => ({
      id: `t${String(i).padStart(2, '0')}`,
      name: `Song ${i}`,
      albumId: i % 5 === 4 ? null : `al${i % 3}`,
      artistIds: i % 4 === 3 ? [`ar${i % 6}`, `ar${(i + 1) % 6}`] : [`ar${i % 6}`],
      genres: [['Rock'], ['rock', 'Pop'], [' ROCK '], ['Jazz'], [], ['pop', 'Jazz']][i % 6]!,
      durationMs: 60_000 + i * 7_001,
    })),
    // Played only on the last millisecond of a year and the first of the next (see `history`).
    { id: 'edge', name: 'Edge', albumId: null, artistIds: ['ar6'], durationMs: 1_000 },
  ],
});

/** A small seeded generator (an LCG), so a failure names a history that can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** The instants in [from, to) where the zone's offset changes (to the minute). */
function offsetChanges(from: number, to: number): number[] {
  const changes: number[] = [];
  for (let t = from; t < to; t += 3_600_000) {
    if (new Date(t).getTimezoneOffset() === new Date(t + 3_600_000).getTimezoneOffset()) continue;
    let lo = t;
    let hi = t + 3_600_000;
    while (hi - lo > 60_000) {
      const mid = lo + Math.max(1, Math.floor((hi - lo) / 120_000)) * 60_000;
      if (new Date(mid).getTimezoneOffset() === new Date(lo).getTimezoneOffset()) lo = mid;
      else hi = mid;
    }
    changes.push(hi);
  }
  return changes;
}

/** A history over `years` (and the one before): crowded around offset changes, midnights and hours. */
function history(seed: number, years: number[], userIds: string[]): PlayLogEntry[] {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const from = new Date(years[0]! - 1, 0, 1).getTime();
  const to = new Date(years[years.length - 1]! + 1, 0, 1).getTime();
  const changes = offsetChanges(from, to);
  const times: number[] = [];
  for (let i = 0; i < 1400; i += 1) {
    const r = rnd();
    if (r < 0.45 && changes.length > 0) {
      times.push(pick(changes) + Math.round((rnd() - 0.5) * 60 * 3_600_000));
    } else if (r < 0.65) {
      // On a local midnight or an hour boundary, or a millisecond either side.
      const day = new Date(from + Math.floor(rnd() * (to - from)));
      const edge = new Date(
        day.getFullYear(),
        day.getMonth(),
        day.getDate(),
        r < 0.55 ? 0 : pick([1, 2, 3, 23]),
      );
      times.push(edge.getTime() + pick([-1, 0, 0, 1]));
    } else if (r < 0.75) {
      // Year ends, where one year's review stops and the next begins.
      times.push(
        new Date(pick(years) + pick([0, 1]), 0, 1).getTime() + Math.round((rnd() - 0.5) * 4 * 86_400_000),
      );
    } else {
      times.push(from + Math.floor(rnd() * (to - from)));
    }
  }
  const tracks = library.tracks.filter((t) => t.id !== 'edge');
  const edge = library.tracks.find((t) => t.id === 'edge')!;
  // An artist first heard on a year's last millisecond is not new the next year.
  const edges = years.flatMap((year) => {
    const start = new Date(year, 0, 1).getTime();
    return [
      logEntryFor(names, edge, {
        userId: userIds[0]!,
        type: 'play',
        at: start - 1,
        device: null,
        explicitAt: true,
      }),
      logEntryFor(names, edge, {
        userId: userIds[1]!,
        type: 'play',
        at: start,
        device: null,
        explicitAt: true,
      }),
    ];
  });
  return edges.concat(
    times.map((at) => {
      // A few favourites, so days have a top track and ties are rare but present.
      const track: TrackRecord = rnd() < 0.4 ? tracks[Math.floor(rnd() * 3)]! : pick(tracks);
      return logEntryFor(names, track, {
        userId: pick(userIds),
        type: rnd() < 0.1 ? 'skip' : 'play',
        at,
        device: null,
        explicitAt: true,
      });
    }),
  );
}

const names = {
  albumName: (id: string) => library.albums.find((a) => a.id === id)?.name ?? null,
  artistName: (id: string) => library.artists.find((a) => a.id === id)?.name ?? null,
};
const trackOf = (id: string) => library.tracks.find((t) => t.id === id)!;
const trackRef = (id: string) => ({
  id,
  name: trackOf(id).name,
  artists: trackOf(id).artistIds.map((a) => ({ id: a, name: names.artistName(a) })),
});

const pad = (n: number) => String(n).padStart(2, '0');
const dateOf = (at: number) => {
  const d = new Date(at);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

interface Sums {
  key: string;
  item: Record<string, unknown>;
  plays: number;
  listeningMs: number;
  last: number;
}

/** One member's top list of a kind, like a top-* read: plays, then the later last play, then the key. */
function ranked(
  logs: PlayLogEntry[],
  keys: (e: PlayLogEntry) => string[],
  item: (key: string) => Sums['item'],
) {
  const sums = new Map<string, Sums>();
  for (const e of logs) {
    for (const key of new Set(keys(e))) {
      const s = sums.get(key) ?? { key, item: item(key), plays: 0, listeningMs: 0, last: -Infinity };
      sums.set(key, s);
      s.plays += 1;
      s.listeningMs += e.durationMs;
      s.last = Math.max(s.last, e.at);
    }
  }
  return [...sums.values()].sort((a, b) => b.plays - a.plays || b.last - a.last || (a.key < b.key ? -1 : 1));
}

/** The figures of a year for some users, each log placed by Date on its own. */
function reference(
  entries: PlayLogEntry[],
  userIds: string[],
  year: number,
  thisYear: number,
  household?: readonly UserRecord[],
) {
  const mine = entries.filter((e) => userIds.includes(e.userId));
  const inYear = mine.filter((e) => new Date(e.at).getFullYear() === year);
  const plays = inYear.filter((e) => e.type === 'play');
  const skips = inYear.length - plays.length;
  const byDate = new Map<string, PlayLogEntry[]>();
  for (const e of plays) byDate.set(dateOf(e.at), [...(byDate.get(dateOf(e.at)) ?? []), e]);
  const dates: string[] = [];
  for (let d = 1; new Date(year, 0, d).getFullYear() === year; d += 1)
    dates.push(dateOf(new Date(year, 0, d).getTime()));
  let busiest: { date: string; plays: number } | null = null;
  let streak: { days: number; from: string; to: string } | null = null;
  let run = 0;
  let dayTop: { date: string; plays: number; trackId: string } | null = null;
  for (const [i, date] of dates.entries()) {
    const day = byDate.get(date) ?? [];
    if (day.length > 0 && (!busiest || day.length > busiest.plays)) busiest = { date, plays: day.length };
    run = day.length > 0 ? run + 1 : 0;
    if (run > 0 && (!streak || run > streak.days))
      streak = { days: run, from: dates[i - run + 1]!, to: date };
    // The day's most played track (the smallest id of equals) leads only with more plays.
    const [top] = ranked(
      day,
      (e) => [e.trackId],
      () => ({}),
    ).sort((a, b) => b.plays - a.plays || (a.key < b.key ? -1 : 1));
    if (top && (!dayTop || top.plays > dayTop.plays)) dayTop = { date, plays: top.plays, trackId: top.key };
  }
  const heardBefore = new Set(
    mine.filter((e) => e.type === 'play' && new Date(e.at).getFullYear() < year).flatMap((e) => e.artistIds),
  );
  const fresh = ranked(
    plays,
    (e) => e.artistIds,
    () => ({}),
  )
    .filter((a) => !heardBefore.has(a.key))
    .sort((a, b) => b.plays - a.plays || (a.key < b.key ? -1 : 1));
  const spelling = (logs: PlayLogEntry[], key: string) =>
    ranked(
      logs,
      (e) => e.genres.map((g) => g.trim()).filter((g) => g.toLowerCase() === key),
      () => ({}),
    ).sort((a, b) => b.plays - a.plays || (a.key < b.key ? -1 : 1))[0]!.key;
  // Each member's list 200 deep, summed; an item as the first member's list has it.
  const top = (
    keys: (e: PlayLogEntry) => string[],
    item: (key: string, logs: PlayLogEntry[]) => Sums['item'],
  ) => {
    const merged = new Map<string, Sums>();
    for (const userId of userIds) {
      const logs = plays.filter((e) => e.userId === userId);
      for (const s of ranked(logs, keys, (key) => item(key, logs)).slice(0, userIds.length > 1 ? 200 : 5)) {
        const seen = merged.get(s.key);
        if (!seen) merged.set(s.key, { ...s });
        else {
          seen.plays += s.plays;
          seen.listeningMs += s.listeningMs;
          seen.last = Math.max(seen.last, s.last);
        }
      }
    }
    return [...merged.values()]
      .sort((a, b) => b.plays - a.plays || b.last - a.last || (a.key < b.key ? -1 : 1))
      .slice(0, 5)
      .map((s, i) => ({ rank: i + 1, ...s.item, plays: s.plays, listeningMs: s.listeningMs }));
  };
  const [first] = [...plays].sort((a, b) => a.at - b.at || (a.trackId < b.trackId ? -1 : 1));
  const members = (household ?? [])
    .filter((user) => user.role !== 'Pass')
    .map((user) => {
      const logs = plays.filter((e) => e.userId === user.id);
      const artist = ranked(
        logs,
        (e) => e.artistIds,
        () => ({}),
      ).find((a) => names.artistName(a.key) !== 'Unknown Artist');
      return {
        userId: user.id,
        username: user.username,
        plays: logs.length,
        listeningMs: logs.reduce((sum, e) => sum + e.durationMs, 0),
        topArtist: artist
          ? { id: artist.key, name: names.artistName(artist.key), plays: artist.plays }
          : null,
      };
    })
    .filter((m) => m.plays > 0)
    .sort((a, b) => b.plays - a.plays || (a.username < b.username ? -1 : 1));
  return {
    firstPlay: first ? { at: new Date(first.at).toISOString(), track: trackRef(first.trackId) } : null,
    members,
    years: [...new Set(mine.filter((e) => e.type === 'play').map((e) => new Date(e.at).getFullYear()))]
      .filter((y) => y <= thisYear)
      .sort((a, b) => b - a),
    totalMs: plays.reduce((sum, e) => sum + e.durationMs, 0),
    plays: plays.length,
    skips,
    skipRate: inYear.length === 0 ? 0 : skips / inYear.length,
    topTracks: top(
      (e) => [e.trackId],
      (id) => ({ id, name: trackOf(id).name, artists: trackRef(id).artists }),
    ),
    topAlbums: top(
      (e) => (e.albumId ? [e.albumId] : []),
      (id) => ({ id, name: names.albumName(id) }),
    ),
    topArtists: top(
      (e) => e.artistIds,
      (id) => ({ id, name: names.artistName(id) }),
    ),
    topGenres: top(
      (e) => e.genres.map((g) => g.trim().toLowerCase()).filter((g) => g !== ''),
      (key, logs) => ({ genre: spelling(logs, key) }),
    ),
    months: Array.from({ length: 12 }, (_, m) => {
      const month = plays.filter((e) => new Date(e.at).getMonth() === m);
      return {
        month: m + 1,
        plays: month.length,
        listeningMs: month.reduce((sum, e) => sum + e.durationMs, 0),
      };
    }),
    hours: Array.from({ length: 24 }, (_, hour) => {
      const inHour = plays.filter((e) => new Date(e.at).getHours() === hour);
      return {
        hour,
        plays: inHour.length,
        listeningMs: inHour.reduce((sum, e) => sum + e.durationMs, 0),
      };
    }),
    mostPlayedDay: busiest,
    longestStreak: streak,
    topTrackOfADay: dayTop && { date: dayTop.date, plays: dayTop.plays, track: trackRef(dayTop.trackId) },
    newArtists: {
      count: fresh.length,
      items: fresh.slice(0, 10).map((a) => ({ id: a.key, name: names.artistName(a.key), plays: a.plays })),
    },
  };
}

const ZONES: Array<[string, number[]]> = [
  ['Europe/Berlin', [2024, 2025]],
  ['America/New_York', [2024, 2025]],
  ['America/Sao_Paulo', [2017, 2018]],
  ['Australia/Lord_Howe', [2024, 2025]],
  ['Asia/Kolkata', [2025]],
];

describe.each(ZONES)('YearInReviewService in %s', (zone, years) => {
  const zoneBefore = process.env.TZ;
  let service: YearInReviewService;
  let entries: PlayLogEntry[];
  let users: UserRecord[];
  const thisYear = years[years.length - 1]! + 1;

  beforeAll(async () => {
    process.env.TZ = zone;
    const clock = new ManualClock(new Date(thisYear, 5, 15).getTime());
    const { services, fakes, statsIndex } = newTestService(StatsService, { library, clock });
    users = [
      makeUserRecord({ role: 'Admin' }),
      makeUserRecord({ publicStats: true }),
      makeUserRecord({ publicStats: false }),
      // A wall display that logs plays: counted in the household, never ranked as a person.
      makeUserRecord({ role: 'Pass', publicStats: true }),
    ];
    for (const user of users) await fakes.users.add(user);
    entries = history(
      [...zone].reduce((h, c) => h * 31 + c.charCodeAt(0), 7),
      years,
      users.map((u) => u.id),
    );
    // In a shuffled order, so the index merges logs that arrive out of time order.
    const rnd = random(years[0]!);
    const order = entries.map((entry) => ({ entry, key: rnd() })).sort((a, b) => a.key - b.key);
    for (const { entry } of order) statsIndex.add(entry);
    const lib = services.library;
    service = new YearInReviewService(
      services.stats,
      statsIndex,
      () => fakes.users.list(),
      (id) => (lib.hasTrack(id) ? lib.track(id) : undefined),
      (id) => lib.artistName(id),
      clock,
    );
  });

  afterAll(() => {
    process.env.TZ = zoneBefore;
  });

  it('answers every figure like a reference that places each log by Date', async () => {
    const admin = principalOf(users[0]!);
    for (const year of [...years, thisYear]) {
      for (const user of users) {
        const review = await service.review(admin, { userId: user.id, year, household: false });
        expect(review, `${zone} ${year} ${user.id}`).toEqual({
          year,
          household: false,
          userIds: [user.id],
          ...reference(entries, [user.id], year, thisYear),
        });
      }
      const household = await service.review(admin, { year, household: true });
      const all = users.map((u) => u.id).sort();
      expect(household, `${zone} ${year} household`).toEqual({
        year,
        household: true,
        userIds: all,
        ...reference(entries, all, year, thisYear, users),
      });
    }
  });
});

describe('YearInReviewService turns', () => {
  it("gives the event loop back between its reads, and between a household's members", async () => {
    const { services, fakes, statsIndex, clock } = newTestService(StatsService, { library });
    const [ann, ben] = [makeUserRecord({ publicStats: true }), makeUserRecord({ publicStats: true })];
    for (const user of [ann, ben]) await fakes.users.add(user);
    const at = clock.now() - 86_400_000;
    for (const user of [ann, ben]) {
      statsIndex.add(
        logEntryFor(names, library.tracks[0]!, {
          userId: user.id,
          type: 'play',
          at,
          device: null,
          explicitAt: true,
        }),
      );
    }
    const service = new YearInReviewService(
      services.stats,
      statsIndex,
      () => fakes.users.list(),
      () => undefined,
      () => null,
      clock,
    );
    const year = new Date(at).getFullYear();
    const turnsDuring = async (household: boolean) => {
      let turns = 0;
      let counting = true;
      const count = () => {
        turns += 1;
        if (counting) setImmediate(count);
      };
      setImmediate(count);
      const review = await service.review(principalOf(ann), { year, household });
      counting = false;
      return { turns, plays: review.plays };
    };
    // One listener's review yields between its reads (its first one makes their first plays per
    // artist); a household's also between members and stretches of its year.
    const one = await turnsDuring(false);
    expect(one.plays).toBe(1);
    expect(one.turns).toBeGreaterThanOrEqual(2);
    const household = await turnsDuring(true);
    expect(household.plays).toBe(2);
    expect(household.turns).toBeGreaterThan(one.turns);
  });
});
