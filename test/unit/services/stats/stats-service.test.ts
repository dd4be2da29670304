import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MINUTE_MS } from '../../../../server/clock.js';
import type { UserRecord } from '../../../../server/domain/user.js';
import { StatsService } from '../../../../server/services/stats/stats-service.js';
import { makeUserRecord, principalOf } from '../../../factories/accounts.js';
import { makeLibrary } from '../../../factories/library.js';
import { newTestService } from '../../../fakes/test-service.js';
import { problemOf } from '../../../support/problem-of.js';

const library = makeLibrary({
  artists: [{ id: 'ar1' }],
  albums: [{ id: 'al1', artistIds: ['ar1'] }],
  tracks: [
    { id: 't1', artistIds: ['ar1'], durationMs: 1000 },
    { id: 't2', artistIds: ['ar1'], durationMs: 2000 },
  ],
});

let t: ReturnType<typeof newTestService<typeof StatsService>>;
let alice: UserRecord;
let carol: UserRecord;
let sharer: UserRecord;
let admin: UserRecord;
beforeEach(async () => {
  t = newTestService(StatsService, { library });
  alice = makeUserRecord();
  carol = makeUserRecord();
  sharer = makeUserRecord({ publicStats: true });
  admin = makeUserRecord({ role: 'Admin' });
  for (const user of [alice, carol, sharer, admin]) await t.fakes.users.add(user);
});

const read = (userId?: string, extra: object = {}) => ({ userId, page: 0, count: 10, ...extra });

describe('StatsService privacy', () => {
  it("refuses another user's private statistics with 401 stats_private", async () => {
    expect(await problemOf(() => t.sut.listeningTime(principalOf(alice), read(carol.id)))).toBe(
      '401 stats_private',
    );
    expect(await problemOf(() => t.sut.top(principalOf(alice), 'tracks', read(carol.id)))).toBe(
      '401 stats_private',
    );
    expect(await problemOf(() => t.sut.recent(principalOf(alice), 'tracks', read(carol.id)))).toBe(
      '401 stats_private',
    );
  });

  it("lets an Admin read anyone's, and anyone read public ones and their own", async () => {
    expect(await problemOf(() => t.sut.listeningTime(principalOf(admin), read(carol.id)))).toBe('ok');
    expect(await problemOf(() => t.sut.listeningTime(principalOf(alice), read(sharer.id)))).toBe('ok');
    expect(await problemOf(() => t.sut.listeningTime(principalOf(carol), read(carol.id)))).toBe('ok');
    expect(await problemOf(() => t.sut.listeningTime(principalOf(carol), read()))).toBe('ok');
  });

  // An unknown user is a 404 for every role, so the page can tell "no such person" from "private".
  it('answers an unknown user 404 user_not_found, to any role', async () => {
    for (const id of ['no-such-user', '../etc/passwd']) {
      expect(await problemOf(() => t.sut.listeningTime(principalOf(alice), read(id)))).toBe(
        '404 user_not_found',
      );
      expect(await problemOf(() => t.sut.listeningTime(principalOf(admin), read(id)))).toBe(
        '404 user_not_found',
      );
    }
  });

  it('answers 404 user_not_found to a caller whose own account is gone', async () => {
    await t.fakes.users.remove(alice.id);
    expect(await problemOf(() => t.sut.listeningTime(principalOf(alice), read()))).toBe('404 user_not_found');
  });
});

describe('StatsService for other APIs', () => {
  it('tells whether a caller may read a user, by the same rule the reads refuse with', () => {
    expect(t.sut.mayRead(principalOf(alice), carol.id)).toBe(false);
    expect(t.sut.mayRead(principalOf(alice), sharer.id)).toBe(true);
    expect(t.sut.mayRead(principalOf(alice), alice.id)).toBe(true);
    expect(t.sut.mayRead(principalOf(admin), carol.id)).toBe(true);
    expect(t.sut.mayRead(principalOf(alice), 'no-such-user')).toBe(false);
  });

  it('gives play counts as numbers: plays and the latest play of every track or album played', async () => {
    const at = t.clock.now();
    await t.sut.log(principalOf(alice), 'play', { id: 't1', dateTime: at - 2 * MINUTE_MS });
    await t.sut.log(principalOf(alice), 'play', { id: 't1', dateTime: at - MINUTE_MS });
    await t.sut.log(principalOf(alice), 'skip', { id: 't2', dateTime: at });
    expect([...t.sut.playCounts(principalOf(alice), 'tracks')]).toEqual([
      ['t1', { plays: 2, lastPlayedAt: at - MINUTE_MS }],
    ]);
    expect([...t.sut.playCounts(principalOf(alice), 'albums')]).toEqual([
      ['al1', { plays: 2, lastPlayedAt: at - MINUTE_MS }],
    ]);
    expect(await problemOf(() => t.sut.playCounts(principalOf(alice), 'tracks', carol.id))).toBe(
      '401 stats_private',
    );
  });

  it('looks play counts up one item at a time, as the whole map gives them, and kept current', async () => {
    const at = t.clock.now();
    await t.sut.log(principalOf(alice), 'play', { id: 't1', dateTime: at - 2 * MINUTE_MS });
    await t.sut.log(principalOf(alice), 'skip', { id: 't2', dateTime: at });
    const tracks = t.sut.playCountLookup(principalOf(alice), 'tracks');
    const albums = t.sut.playCountLookup(principalOf(alice), 'albums');
    expect([tracks('t1'), tracks('t2'), tracks('no-such-track')]).toEqual([
      { plays: 1, lastPlayedAt: at - 2 * MINUTE_MS },
      undefined,
      undefined,
    ]);
    expect(albums('al1')).toEqual({ plays: 1, lastPlayedAt: at - 2 * MINUTE_MS });
    await t.sut.log(principalOf(alice), 'play', { id: 't1', dateTime: at - MINUTE_MS });
    expect(tracks('t1')).toEqual(t.sut.playCounts(principalOf(alice), 'tracks').get('t1'));
    expect(tracks('t1')).toEqual({ plays: 2, lastPlayedAt: at - MINUTE_MS });
    expect(await problemOf(() => t.sut.playCountLookup(principalOf(alice), 'tracks', carol.id))).toBe(
      '401 stats_private',
    );
  });
});

describe('StatsService ranges', () => {
  it('refuses gtDateTime later than ltDateTime with 400 invalid_parameter', async () => {
    const now = t.clock.now();
    const range = (gtDateTime: number, ltDateTime: number) => read(undefined, { gtDateTime, ltDateTime });
    expect(await problemOf(() => t.sut.listeningTime(principalOf(alice), range(now, now - 1)))).toBe(
      '400 invalid_parameter',
    );
    expect(await problemOf(() => t.sut.top(principalOf(alice), 'albums', range(now, now - 1)))).toBe(
      '400 invalid_parameter',
    );
    expect(await problemOf(() => t.sut.listeningTime(principalOf(alice), range(now, now)))).toBe('ok');
  });

  it('takes no date filters for recent lists, so a reversed range there is not refused', async () => {
    const now = t.clock.now();
    const reversed = read(undefined, { gtDateTime: now, ltDateTime: now - 1 });
    expect(await problemOf(() => t.sut.recent(principalOf(alice), 'tracks', reversed))).toBe('ok');
  });

  it('refuses a dateTime more than five minutes ahead of the clock', async () => {
    const ahead = t.clock.now() + 5 * MINUTE_MS;
    expect(await problemOf(() => t.sut.log(principalOf(alice), 'play', { id: 't1', dateTime: ahead }))).toBe(
      'ok',
    );
    expect(
      await problemOf(() => t.sut.log(principalOf(alice), 'play', { id: 't1', dateTime: ahead + 1 })),
    ).toBe('400 invalid_parameter');
  });

  it('refuses a log of an unknown track with 404 track_not_found', async () => {
    expect(await problemOf(() => t.sut.log(principalOf(alice), 'play', { id: 'nope' }))).toBe(
      '404 track_not_found',
    );
    expect(t.fakes.plays.entries).toEqual([]);
  });
});

describe('StatsService devices', () => {
  it('matches the device filter without regard to case', async () => {
    const caller = principalOf(alice);
    await t.sut.log(caller, 'play', { id: 't1', device: 'Phone' });
    await t.sut.log(caller, 'play', { id: 't2', device: 'phone' });
    await t.sut.log(caller, 'play', { id: 't2', device: 'Car' });
    expect(await t.sut.listeningTime(caller, read(undefined, { device: 'PHONE' }))).toMatchObject({
      plays: 2,
      totalMs: 3000,
    });
    expect(await t.sut.listeningTime(caller, read(undefined, { device: 'car' }))).toMatchObject({ plays: 1 });
  });
});

describe('StatsService top lists', () => {
  it('reads every kind of a range at once, named as each top-* read names it', async () => {
    const caller = principalOf(alice);
    for (const [id, minute] of [
      ['t1', 1],
      ['t2', 2],
      ['t2', 3],
      ['t1', 9],
    ] as const) {
      await t.sut.log(caller, 'play', { id, dateTime: t.clock.now() - 10 * MINUTE_MS + minute * MINUTE_MS });
    }
    const range = read(undefined, { ltDateTime: t.clock.now() - 2 * MINUTE_MS, count: 5 });
    const tops = await t.sut.tops(caller, range);
    expect(tops.tracks.map((x) => [x.id, x.plays])).toEqual([
      ['t2', 2],
      ['t1', 1],
    ]);
    for (const kind of ['tracks', 'albums', 'artists', 'genres'] as const) {
      expect(t.sut.named(kind, tops[kind])).toEqual(await t.sut.top(caller, kind, range));
    }
    expect(await problemOf(() => t.sut.tops(principalOf(alice), read(carol.id)))).toBe('401 stats_private');
  });
});

describe('StatsService retries', () => {
  it('records a log with an explicit dateTime once, however often it is retried', async () => {
    const caller = principalOf(alice);
    const request = { id: 't1', dateTime: t.clock.now() - MINUTE_MS };
    const first = await t.sut.log(caller, 'play', request);
    const retry = await t.sut.log(caller, 'play', request);
    expect(retry).toEqual(first);
    expect(t.fakes.plays.entries).toHaveLength(1);
  });

  it('records a retry that arrives while its original is still being written once', async () => {
    const caller = principalOf(alice);
    const request = { id: 't1', dateTime: t.clock.now() - MINUTE_MS };
    const release = t.fakes.plays.hold();
    const original = t.sut.log(caller, 'play', request);
    // Requests arrive in separate turns of the event loop; the original is now waiting on the disk.
    await new Promise((resolve) => setImmediate(resolve));
    const retried = t.sut.log(caller, 'play', request);
    release();
    const [first, retry] = await Promise.all([original, retried]);
    expect(retry).toEqual(first);
    expect(t.fakes.plays.entries).toHaveLength(1);
  });

  it('records logs without a dateTime, and logs differing in user, type or time, each time', async () => {
    const at = t.clock.now() - MINUTE_MS;
    await t.sut.log(principalOf(alice), 'play', { id: 't1' });
    await t.sut.log(principalOf(alice), 'play', { id: 't1' });
    await t.sut.log(principalOf(alice), 'play', { id: 't1', dateTime: at });
    await t.sut.log(principalOf(alice), 'skip', { id: 't1', dateTime: at });
    await t.sut.log(principalOf(carol), 'play', { id: 't1', dateTime: at });
    await t.sut.log(principalOf(alice), 'play', { id: 't1', dateTime: at + 1 });
    expect(t.fakes.plays.entries).toHaveLength(6);
  });
});

describe('StatsService headline facts', () => {
  it('gives the days listened and the new artists of a range, never counting "Unknown Artist" as one', async () => {
    const withUnknown = makeLibrary({
      artists: [{ id: 'ar1' }, { id: 'ar2' }, { id: 'unknown', name: 'Unknown Artist' }],
      albums: [{ id: 'al1', artistIds: ['ar1'] }],
      tracks: [
        { id: 't1', artistIds: ['ar1'], durationMs: 1000 },
        { id: 't2', artistIds: ['ar2'], durationMs: 1000 },
        { id: 't3', artistIds: ['unknown'], durationMs: 1000 },
      ],
    });
    const s = newTestService(StatsService, { library: withUnknown });
    await s.fakes.users.add(alice);
    const caller = principalOf(alice);
    const now = s.clock.now();
    const day = 24 * 60 * MINUTE_MS;
    await s.sut.log(caller, 'play', { id: 't1', dateTime: now - 10 * day });
    await s.sut.log(caller, 'play', { id: 't1', dateTime: now - 2 * day });
    await s.sut.log(caller, 'play', { id: 't2', dateTime: now - 2 * day + MINUTE_MS });
    await s.sut.log(caller, 'play', { id: 't3', dateTime: now - MINUTE_MS });
    const lastWeek = await s.sut.listeningTime(
      caller,
      read(undefined, { gtDateTime: now - 7 * day, ltDateTime: now }),
    );
    expect(lastWeek).toMatchObject({ plays: 3, newArtists: 1 });
    expect(lastWeek.daysListened).toBeGreaterThanOrEqual(2);
    expect(await s.sut.listeningTime(caller, read())).toMatchObject({ plays: 4, newArtists: 2 });
  });

  it("counts the household's days and new artists over the people the caller may read, never a Pass", async () => {
    const pass = makeUserRecord({ role: 'Pass' });
    await t.fakes.users.add(pass);
    const now = t.clock.now();
    await t.sut.log(principalOf(alice), 'play', { id: 't1', dateTime: now - 1000 });
    await t.sut.log(principalOf(carol), 'play', { id: 't2', dateTime: now - 2000 });
    expect(await t.sut.householdFacts(principalOf(admin), read())).toMatchObject({
      people: 4,
      newArtists: 1,
    });
    // Alice may read only herself and the sharer: Carol's private plays count for neither figure.
    expect(await t.sut.householdFacts(principalOf(alice), read())).toEqual({
      people: 2,
      daysListened: 1,
      newArtists: 1,
    });
    expect(await t.sut.householdFacts(principalOf(pass), read())).toMatchObject({ people: 1 });
    expect(await t.sut.householdFacts(principalOf(sharer), read())).toEqual({
      people: 1,
      daysListened: 0,
      newArtists: 0,
    });
    expect(
      await problemOf(() =>
        t.sut.householdFacts(principalOf(alice), read(undefined, { gtDateTime: now, ltDateTime: now - 1 })),
      ),
    ).toBe('400 invalid_parameter');
  });
});

describe('StatsService reads of a range or a device', () => {
  it('make ahead what they need before reading, whoever asks (no caller has to prepare them)', async () => {
    const caller = principalOf(alice);
    await t.sut.log(caller, 'play', { id: 't1', device: 'Phone' });
    const prepare = vi.spyOn(t.statsIndex, 'prepare');
    const month = read(undefined, { gtDateTime: t.clock.now() - 30 * 24 * 60 * MINUTE_MS, device: 'phone' });
    await t.sut.listeningTime(caller, month);
    await t.sut.top(caller, 'tracks', month);
    await t.sut.tops(caller, month);
    await t.sut.ranked(caller, 'albums', month);
    await t.sut.recent(caller, 'albums', read(undefined, { device: 'phone' }));
    expect(prepare).toHaveBeenCalledTimes(5);
    for (const [filter] of prepare.mock.calls)
      expect(filter).toMatchObject({ userId: alice.id, device: 'phone' });
  });
});
