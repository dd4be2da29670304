import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { postForm, postJson, problem, useTestServer } from '../support/server.js';
import type { YearInReview } from '../../server/contract/history.js';
import { historyServer } from './support.js';

/**
 * The year in review of a small history whose figures are worked out by hand below. Times are local
 * (no offset), as the review counts days, months and hours in the server's time zone.
 */
const t = useTestServer(historyServer());
let ann: TestUser;
let ben: TestUser;
let cat: TestUser;

async function log(user: TestUser, id: string, dateTime: string, type: 'play' | 'skip' = 'play') {
  const response = await postJson(t, `/api/stats/log-${type}`, { id, dateTime }, user.token);
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  ann = await makeUser(t);
  ben = await makeUser(t);
  cat = await makeUser(t);
  await log(ann, 'never', '2024-12-31T22:00:00'); // before the year: Rick Astley is not new in 2025
  await log(ann, 'never', '2025-01-01T08:15:00');
  await log(ann, 'never', '2025-01-01T08:20:00');
  await log(ann, 'crazy', '2025-01-01T09:00:00');
  await log(ann, 'sun', '2025-01-02T20:30:00');
  await log(ann, 'never', '2025-01-03T20:45:00');
  await log(ann, 'crazy', '2025-03-10T07:00:00', 'skip');
  await log(ann, 'something', '2025-03-10T23:59:00');
  await log(ann, 'something', '2025-03-11T00:10:00');
  await log(ann, 'never', '2026-01-01T00:00:00'); // the next year
  for (const minute of ['00', '01', '02', '03']) await log(ben, 'crazy', `2025-06-01T12:${minute}:00`);
  await log(cat, 'sun', '2025-07-07T07:07:00');
  expect((await postForm(t, '/api/users/settings', { publicStats: 'true' }, ben.token)).status).toBe(200);
  expect((await postForm(t, '/api/users/settings', { publicStats: 'false' }, cat.token)).status).toBe(200);
});

const review = async (user: TestUser | string, query: string) => {
  const response = await t.call(`/api/stats/year-in-review?${query}`, {
    token: typeof user === 'string' ? user : user.token,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as YearInReview;
};

describe('GET /api/stats/year-in-review', () => {
  it('gives the hand-computed figures of one listener’s year', async () => {
    const r = await review(ann, 'year=2025');
    expect(r).toMatchObject({ year: 2025, household: false, userIds: [ann.id], years: [2026, 2025, 2024] });
    // 7 plays: never ×3 (213 s), crazy (236 s), sun (185 s), something ×2 (182 s); one skip.
    expect(r.plays).toBe(7);
    expect(r.totalMs).toBe(3 * 213_000 + 236_000 + 185_000 + 2 * 182_000);
    expect(r.skips).toBe(1);
    expect(r.skipRate).toBeCloseTo(1 / 8);
    // Ties go to the later last play, then the smaller id.
    expect(r.topTracks.map((x) => [x.rank, x.id, x.plays])).toEqual([
      [1, 'never', 3],
      [2, 'something', 2],
      [3, 'sun', 1],
      [4, 'crazy', 1],
    ]);
    expect(r.topArtists.map((x) => [x.id, x.plays])).toEqual([
      ['beat', 3],
      ['rick', 3],
      ['bey', 1],
      ['jay', 1],
    ]);
    expect(r.topAlbums.map((x) => [x.id, x.plays])).toEqual([
      ['abbey', 3],
      ['whenever', 3],
      ['dil', 1],
    ]);
    expect(r.topGenres.map((x) => [x.genre, x.plays])).toEqual([
      ['Rock', 3],
      ['Pop', 3],
      ['R&B', 1],
    ]);
    expect(r.months.map((m) => m.plays)).toEqual([5, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(r.months[0]!.listeningMs).toBe(3 * 213_000 + 236_000 + 185_000);
    const hours = Object.fromEntries(r.hours.filter((h) => h.plays > 0).map((h) => [h.hour, h.plays]));
    expect(hours).toEqual({ 0: 1, 8: 2, 9: 1, 20: 2, 23: 1 });
    expect(r.mostPlayedDay).toEqual({ date: '2025-01-01', plays: 3 });
    expect(r.longestStreak).toEqual({ days: 3, from: '2025-01-01', to: '2025-01-03' });
    expect(r.topTrackOfADay).toMatchObject({
      date: '2025-01-01',
      plays: 2,
      track: { id: 'never', name: 'Never Gonna Give You Up' },
    });
    expect(r.newArtists).toEqual({
      count: 3,
      items: [
        { id: 'beat', name: 'The Beatles', plays: 3 },
        { id: 'bey', name: 'Beyoncé', plays: 1 },
        { id: 'jay', name: 'JAY-Z', plays: 1 },
      ],
    });
    // The skip the night before does not count; New Year's Eve's play was the year before.
    expect(r.firstPlay).toMatchObject({
      at: new Date('2025-01-01T08:15:00').toISOString(),
      track: { id: 'never', name: 'Never Gonna Give You Up', artists: [{ id: 'rick', name: 'Rick Astley' }] },
    });
    // One listener's review ranks no members.
    expect(r.members).toEqual([]);
  });

  it('adds up the household members the caller may see', async () => {
    const mine = await review(ann, 'year=2025&household=true');
    expect(mine.userIds).not.toContain(cat.id); // private
    expect(mine.userIds).toEqual(expect.arrayContaining([ann.id, ben.id]));
    expect(mine.plays).toBe(11);
    expect(mine.topTracks[0]).toMatchObject({ id: 'crazy', plays: 5 });
    expect(mine.topTrackOfADay).toMatchObject({ date: '2025-06-01', plays: 4, track: { id: 'crazy' } });
    // Who listened most, each with their top artist; the Admin without plays is not ranked.
    expect(mine.members.map((m) => [m.userId, m.username, m.plays, m.topArtist?.id])).toEqual([
      [ann.id, ann.username, 7, 'beat'],
      [ben.id, ben.username, 4, 'bey'],
    ]);
    expect(mine.members[0]!.listeningMs).toBe(mine.totalMs - 4 * 236_000);
    const admin = await review(t.adminToken, 'year=2025&household=true');
    expect(admin.userIds).toContain(cat.id);
    expect(admin.plays).toBe(12);
    expect(admin.members.map((m) => m.userId)).toEqual([ann.id, ben.id, cat.id]);
  });

  it('answers an empty year with zeros, and refuses bad years and private users', async () => {
    const empty = await review(ann, 'year=2019');
    expect(empty).toMatchObject({
      plays: 0,
      totalMs: 0,
      skipRate: 0,
      mostPlayedDay: null,
      longestStreak: null,
      topTracks: [],
    });
    for (const query of ['', 'year=1990', 'year=2999', 'year=twenty']) {
      const response = await t.call(`/api/stats/year-in-review?${query}`, { token: ann.token });
      expect(await problem(response)).toMatchObject({ status: 400, parameter: 'year' });
    }
    const other = await t.call(`/api/stats/year-in-review?year=2025&userId=${cat.id}`, { token: ann.token });
    expect((await problem(other)).code).toBe('stats_private');
  });
});
