import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.js';
import type { TopAlbum, TopArtist, TopTrack } from '../../server/contract/stats.js';
import { album, artist, fakeScanner, libraryOf, track } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { loginToken, postForm, problem, startTestServer, type TestServer } from '../support/server.js';

/**
 * Every stats endpoint of docs/API.md, Statistics over real HTTP, on a synthetic library whose ids read well:
 * tracks t1–t4, albums al1–al2, artists ar1–ar2.
 */
const library = libraryOf([
  artist('ar1', 'Aurora Lane', [
    album('al1', 'Northern', [
      track('t1', 'First', { genres: ['Rock'], durationMs: 200_000 }),
      track('t2', 'Second', { artistIds: ['ar1', 'ar2'], genres: ['rock', 'Pop'], durationMs: 100_000 }),
    ]),
  ]),
  artist('ar2', 'The Static', [
    album('al2', 'Southern', [
      track('t3', 'Third', { genres: ['ROCK'], durationMs: 300_000 }),
      track('t4', 'Fourth', { genres: ['Jazz'], durationMs: 60_000 }),
    ]),
  ]),
]);

const NOW = Date.parse('2026-06-15T12:00:00Z');

let t: TestServer;
let scanner: ReturnType<typeof fakeScanner>;

beforeAll(async () => {
  scanner = fakeScanner(library);
  t = await startTestServer({ scanner, clock: new ManualClock(NOW) });
});
afterAll(async () => {
  await t.stop();
});

/** The interface's style: parameters in the query string, Content-Type application/json. */
function logPlay(user: TestUser, params: Record<string, string>, type: 'play' | 'skip' = 'play') {
  return t.call(`/api/stats/log-${type}?${new URLSearchParams(params).toString()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    token: user.token,
  });
}

type Reader = Pick<TestUser, 'token'>;

function callStats(reader: Reader, endpoint: string, params: Record<string, string>) {
  return t.call(`/api/stats/${endpoint}?${new URLSearchParams(params).toString()}`, { token: reader.token });
}

async function read<T = unknown>(reader: Reader, endpoint: string, params: Record<string, string> = {}) {
  const response = await callStats(reader, endpoint, params);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

/** The problem document a read answers instead of its statistics. */
async function refusal(reader: Reader, endpoint: string, params: Record<string, string> = {}) {
  return problem(await callStats(reader, endpoint, params));
}

async function logAll(
  user: TestUser,
  plays: Array<[track: string, iso: string, device?: string]>,
  type: 'play' | 'skip' = 'play',
) {
  for (const [id, dateTime, device] of plays) {
    const params: Record<string, string> = { id, dateTime };
    if (device) params.device = device;
    const response = await logPlay(user, params, type);
    expect(response.status, await response.clone().text()).toBe(200);
  }
}

describe('log-play and log-skip', () => {
  let user: TestUser;
  beforeEach(async () => {
    user = await makeUser(t);
  });

  it('answers 200 with the log id and UTC time, and the play counts', async () => {
    const response = await logPlay(user, { id: 't1', device: 'Kitchen', dateTime: '2026-06-15T10:00:00Z' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { logged: boolean; id: string; at: string };
    expect(body).toEqual({
      logged: true,
      id: expect.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
      at: '2026-06-15T10:00:00.000Z',
    });
    expect(await read(user, 'listening-time')).toEqual({
      userId: user.id,
      totalMs: 200_000,
      plays: 1,
      from: null,
      to: null,
      firstPlayedAt: '2026-06-15T10:00:00.000Z',
      lastPlayedAt: '2026-06-15T10:00:00.000Z',
      daysListened: 1,
      newArtists: 1,
    });
  });

  it('defaults dateTime to now, and accepts the parameters from a form body', async () => {
    const response = await postForm(t, '/api/stats/log-play', { id: 't2' }, user.token);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { at: string }).at).toBe(new Date(t.clock.now()).toISOString());
  });

  it('refuses bad input with a 400 naming the parameter, and writes nothing', async () => {
    const before = await readFile(join(t.dataDir, 'plays.jsonl'));
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'id'],
      [{ id: 't1', dateTime: 'yesterday' }, 'dateTime'],
      [{ id: 't1', dateTime: '2026-13-01' }, 'dateTime'],
      [{ id: 't1', device: 'x'.repeat(129) }, 'device'],
      // More than 5 minutes in the future of the server's clock.
      [{ id: 't1', dateTime: new Date(NOW + 5 * 60_000 + 1_000).toISOString() }, 'dateTime'],
    ];
    for (const [params, parameter] of cases) {
      const response = await logPlay(user, params);
      expect(response.status, JSON.stringify(params)).toBe(400);
      expect(await problem(response)).toMatchObject({ code: 'invalid_parameter', parameter });
    }
    expect(await readFile(join(t.dataDir, 'plays.jsonl'))).toEqual(before);
  });

  it('accepts a client clock up to 5 minutes ahead', async () => {
    const response = await logPlay(user, { id: 't1', dateTime: new Date(NOW + 4 * 60_000).toISOString() });
    expect(response.status).toBe(200);
  });

  it('answers 404 track_not_found for an unknown track, and for an id of the wrong shape', async () => {
    for (const id of ['nope', '../etc/passwd', 'x'.repeat(65)]) {
      const response = await logPlay(user, { id });
      expect(response.status).toBe(404);
      expect((await problem(response)).code).toBe('track_not_found');
    }
  });

  it('refuses a Pass account with 401 forbidden_role (Pass may only read)', async () => {
    const pass = await makeUser(t, { role: 'Pass' });
    const response = await logPlay(pass, { id: 't1' });
    expect(response.status).toBe(401);
    expect((await problem(response)).code).toBe('forbidden_role');
  });

  it('records a retried log (same user, track, type and dateTime) once and answers 200 again', async () => {
    const params = { id: 't3', dateTime: '2026-06-14T08:00:00Z' };
    const first = (await (await logPlay(user, params)).json()) as { id: string };
    const again = await logPlay(user, params);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(first.id);
    // Racing retries are one log too.
    const racing = await Promise.all(
      [1, 2, 3].map(() => logPlay(user, { id: 't4', dateTime: '2026-06-14T09:00:00Z' })),
    );
    expect(racing.map((r) => r.status)).toEqual([200, 200, 200]);
    // A skip at the same moment is a different log.
    expect((await logPlay(user, params, 'skip')).status).toBe(200);
    expect((await read<{ plays: number }>(user, 'listening-time')).plays).toBe(2);
    // Without an explicit dateTime two logs are two plays.
    await logPlay(user, { id: 't1' });
    await logPlay(user, { id: 't1' });
    expect((await read<{ plays: number }>(user, 'listening-time')).plays).toBe(4);
  });

  it('counts all of 200 concurrent log-plays', async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => logPlay(user, { id: `t${(i % 4) + 1}`, device: 'burst' })),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect((await read<{ plays: number }>(user, 'listening-time', { device: 'burst' })).plays).toBe(200);
    const lines = (await readFile(join(t.dataDir, 'plays.jsonl'), 'utf8'))
      .split('\n')
      .filter((l) => l.includes(user.id));
    expect(lines).toHaveLength(200);
  });

  it('stores skips and shows them as skips, never as plays', async () => {
    await logAll(user, [['t1', '2026-06-10T10:00:00Z']]);
    await logAll(
      user,
      [
        ['t1', '2026-06-10T11:00:00Z'],
        ['t2', '2026-06-10T12:00:00Z'],
      ],
      'skip',
    );
    expect(await read(user, 'listening-time')).toMatchObject({ plays: 1, totalMs: 200_000 });
    const top = await read<TopTrack[]>(user, 'top-tracks');
    expect(top).toEqual([expect.objectContaining({ id: 't1', plays: 1, skips: 1, listeningMs: 200_000 })]);
    expect(await read<unknown[]>(user, 'recent-tracks')).toHaveLength(1);
  });
});

describe('reading statistics', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await makeUser(t);
    await logAll(user, [
      ['t1', '2026-06-01T10:00:00Z', 'Kitchen'],
      ['t1', '2026-06-02T10:00:00Z', 'Car'],
      ['t2', '2026-06-01T11:00:00Z', 'kitchen'],
      ['t2', '2026-06-03T10:00:00Z', 'Kitchen Speaker'],
      ['t3', '2026-05-20T10:00:00Z'],
      ['t4', '2026-05-20T10:00:00Z'],
    ]);
    await logAll(user, [['t3', '2026-06-04T10:00:00Z']], 'skip');
  });

  it('ranks by plays, then the latest play, then id, with the contract fields', async () => {
    const top = await read<TopTrack[]>(user, 'top-tracks');
    // t1 and t2 have 2 plays; t2 was played last. t3 and t4 tie completely: id decides.
    expect(top.map((i) => [i.rank, i.id, i.plays])).toEqual([
      [1, 't2', 2],
      [2, 't1', 2],
      [3, 't3', 1],
      [4, 't4', 1],
    ]);
    expect(top[0]).toEqual({
      rank: 1,
      id: 't2',
      name: 'Second',
      album: { id: 'al1', name: 'Northern' },
      artists: [
        { id: 'ar1', name: 'Aurora Lane' },
        { id: 'ar2', name: 'The Static' },
      ],
      plays: 2,
      skips: 0,
      listeningMs: 200_000,
      lastPlayedAt: '2026-06-03T10:00:00.000Z',
    });
    expect(top[2]).toMatchObject({ id: 't3', skips: 1 });
  });

  it('lists the devices played on with their plays (skips and case do not split them)', async () => {
    expect(await read(user, 'devices')).toEqual([
      { device: 'Kitchen', plays: 2 },
      { device: null, plays: 2 }, // after a named device of as many plays
      { device: 'Car', plays: 1 },
      { device: 'Kitchen Speaker', plays: 1 },
    ]);
    const bad = await t.call('/api/stats/devices?userId=', { token: user.token });
    expect(bad.status).toBe(200); // empty counts as absent: the caller's own
  });

  it('gives the first and last play of a range beside the totals', async () => {
    expect(await read(user, 'listening-time', { device: 'kitchen' })).toMatchObject({
      plays: 2,
      firstPlayedAt: '2026-06-01T10:00:00.000Z',
      lastPlayedAt: '2026-06-01T11:00:00.000Z',
    });
    expect(await read(user, 'listening-time', { gtDateTime: '2026-06-05' })).toMatchObject({
      plays: 0,
      firstPlayedAt: null,
      lastPlayedAt: null,
    });
  });

  it('counts plays per weekday and hour in the server time zone', async () => {
    const { cells } = await read<{ cells: number[][] }>(user, 'heatmap');
    expect(cells).toHaveLength(7);
    expect(cells.every((row) => row.length === 24)).toBe(true);
    expect(cells.flat().reduce((a, b) => a + b, 0)).toBe(6);
    const at = new Date('2026-06-01T10:00:00Z');
    expect(cells[(at.getDay() + 6) % 7]![at.getHours()]).toBeGreaterThanOrEqual(1);
    const ranged = await read<{ cells: number[][] }>(user, 'heatmap', { gtDateTime: '2026-06-02' });
    expect(ranged.cells.flat().reduce((a, b) => a + b, 0)).toBe(2);
    const reversed = { gtDateTime: '2026-06-03', ltDateTime: '2026-06-01' };
    expect(await refusal(user, 'heatmap', reversed)).toMatchObject({ status: 400, parameter: 'gtDateTime' });
  });

  it('lists the household with who may be read', async () => {
    const hidden = await makeUser(t);
    await postForm(t, '/api/users/settings', { publicStats: 'false' }, hidden.token);
    const members = await read<Array<{ id: string; self: boolean; visible: boolean; username: string }>>(
      user,
      'members',
    );
    expect(members.find((m) => m.id === user.id)).toMatchObject({ self: true, visible: true });
    expect(members.find((m) => m.id === hidden.id)).toMatchObject({ self: false, visible: false });
    expect(members.find((m) => m.username === 'admin')).toMatchObject({ visible: true });
    const names = members.map((m) => m.username.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const asAdmin = (await (await t.call('/api/stats/members', { token: t.adminToken })).json()) as Array<{
      id: string;
      visible: boolean;
    }>;
    expect(asAdmin.every((m) => m.visible)).toBe(true);
    await postForm(t, '/api/users/delete', { id: hidden.id }, t.adminToken);
  });

  it('pages through the ranking; a page past the end is empty; bad paging is 400', async () => {
    const second = await read<TopTrack[]>(user, 'top-tracks', { count: '1', page: '1' });
    expect(second.map((i) => [i.rank, i.id])).toEqual([[2, 't1']]);
    expect(await read(user, 'top-tracks', { page: '9' })).toEqual([]);
    for (const [name, value] of [
      ['count', '0'],
      ['count', '1001'],
      ['page', '-1'],
      ['count', '2.5'],
      ['page', 'first'],
    ] as const) {
      expect(await refusal(user, 'top-tracks', { [name]: value })).toMatchObject({
        status: 400,
        code: 'invalid_parameter',
        parameter: name,
      });
    }
  });

  it('counts a play once per distinct artist, and groups genres case-insensitively', async () => {
    const artists = await read<TopArtist[]>(user, 'top-artists');
    // ar1: t1 ×2 + t2 ×2 = 4; ar2: t2 ×2 + t3 + t4 = 4; ar1 was played last (06-03 via t2 is both) → id.
    expect(artists.map((a) => [a.id, a.name, a.plays])).toEqual([
      ['ar1', 'Aurora Lane', 4],
      ['ar2', 'The Static', 4],
    ]);
    const genres = await read<Array<{ genre: string; plays: number; listeningMs: number }>>(
      user,
      'top-genres',
    );
    // Rock (t1), rock (t2), ROCK (t3): 5 plays, most frequent spelling… each once per track, t1 and t2 twice.
    expect(genres[0]).toMatchObject({ plays: 5, listeningMs: 400_000 + 200_000 + 300_000 });
    expect(['Rock', 'rock']).toContain(genres[0]!.genre);
    expect(genres.map((g) => g.genre.toLowerCase())).toEqual(['rock', 'pop', 'jazz']);
    const albums = await read<TopAlbum[]>(user, 'top-albums');
    expect(albums.map((a) => [a.id, a.plays, a.listeningMs])).toEqual([
      ['al1', 4, 600_000],
      ['al2', 2, 360_000],
    ]);
  });

  it('treats both ends of a range as inclusive', async () => {
    const edge = { gtDateTime: '2026-06-01T10:00:00Z', ltDateTime: '2026-06-02T10:00:00Z' };
    expect(await read(user, 'listening-time', edge)).toEqual({
      userId: user.id,
      totalMs: 200_000 * 2 + 100_000,
      plays: 3,
      from: '2026-06-01T10:00:00.000Z',
      to: '2026-06-02T10:00:00.000Z',
      firstPlayedAt: '2026-06-01T10:00:00.000Z',
      lastPlayedAt: '2026-06-02T10:00:00.000Z',
      daysListened: 2,
      newArtists: 1,
    });
    const inside = { gtDateTime: '2026-06-01T10:00:01Z', ltDateTime: '2026-06-02T09:59:59Z' };
    expect(await read(user, 'listening-time', inside)).toMatchObject({ plays: 1, totalMs: 100_000 });
    const top = await read<TopTrack[]>(user, 'top-tracks', edge);
    expect(top.map((i) => [i.id, i.plays])).toEqual([
      ['t1', 2],
      ['t2', 1],
    ]);
  });

  it('refuses gtDateTime later than ltDateTime, and unparseable dates', async () => {
    const reversed = { gtDateTime: '2026-06-02', ltDateTime: '2026-06-01' };
    expect(await refusal(user, 'top-albums', reversed)).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
    });
    const unparseable = await refusal(user, 'listening-time', { ltDateTime: 'soon' });
    expect(unparseable).toMatchObject({ status: 400, parameter: 'ltDateTime' });
  });

  it('filters by device exactly, ignoring case', async () => {
    expect(await read(user, 'listening-time', { device: 'KITCHEN' })).toMatchObject({
      plays: 2,
      totalMs: 300_000,
    });
    expect(await read(user, 'listening-time', { device: 'Kitch' })).toMatchObject({ plays: 0, totalMs: 0 });
    const top = await read<TopTrack[]>(user, 'top-tracks', { device: 'kitchen' });
    expect(top.map((i) => i.id)).toEqual(['t2', 't1']);
  });

  it('lists recent plays newest first, and distinct albums and artists by their latest play', async () => {
    const recent = await read<
      Array<{ id: string; playedAt: string; device: string | null; track: { id: string } }>
    >(user, 'recent-tracks');
    expect(recent.slice(0, 4).map((r) => [r.track.id, r.playedAt, r.device])).toEqual([
      ['t2', '2026-06-03T10:00:00.000Z', 'Kitchen Speaker'],
      ['t1', '2026-06-02T10:00:00.000Z', 'Car'],
      ['t2', '2026-06-01T11:00:00.000Z', 'kitchen'],
      ['t1', '2026-06-01T10:00:00.000Z', 'Kitchen'],
    ]);
    // Two plays at the same moment both appear (the skip of t3 does not).
    expect(recent).toHaveLength(6);
    expect(
      recent
        .slice(4)
        .map((r) => r.track.id)
        .sort(),
    ).toEqual(['t3', 't4']);
    expect(await read(user, 'recent-albums')).toEqual([
      { id: 'al1', name: 'Northern', lastPlayedAt: '2026-06-03T10:00:00.000Z', plays: 4 },
      { id: 'al2', name: 'Southern', lastPlayedAt: '2026-05-20T10:00:00.000Z', plays: 2 },
    ]);
    const artists = await read<Array<{ id: string }>>(user, 'recent-artists', { count: '1' });
    expect(artists).toHaveLength(1);
  });

  it('charts activity per day over the range, empty days included', async () => {
    const days = await read<Array<{ start: string; plays: number; skips: number; listeningMs: number }>>(
      user,
      'activity',
      { gtDateTime: '2026-06-01', ltDateTime: '2026-06-05' },
    );
    expect(days.map((d) => d.plays)).toEqual([2, 1, 1, 0, 0]);
    expect(days.map((d) => d.skips)).toEqual([0, 0, 0, 1, 0]);
    expect(days[0]).toMatchObject({ listeningMs: 300_000 });
    const decades = { gtDateTime: '2000-01-01', ltDateTime: '2026-01-01', step: 'day' };
    expect(await refusal(user, 'activity', decades)).toMatchObject({ status: 400, code: 'too_many_steps' });
    expect(await refusal(user, 'activity', { step: 'hour' })).toMatchObject({
      status: 400,
      parameter: 'step',
    });
  });

  it('keeps a track deleted from the library in the statistics, with the name it had', async () => {
    const other = await makeUser(t);
    await logAll(other, [['t4', '2026-06-01T10:00:00Z']]);
    scanner.set({ ...library, tracks: library.tracks.filter((track) => track.id !== 't4') });
    const scan = await t.call('/api/library/scan', { method: 'POST', token: t.adminToken });
    expect(scan.status).toBe(202);
    await t.server.services.library.waitForIdle();
    expect((await t.call('/api/tracks/t4', { token: other.token })).status).toBe(404);
    const top = await read<TopTrack[]>(other, 'top-tracks');
    expect(top).toEqual([
      expect.objectContaining({ id: 't4', name: 'Fourth', album: { id: 'al2', name: 'Southern' }, plays: 1 }),
    ]);
    scanner.set(library);
    await t.call('/api/library/scan', { method: 'POST', token: t.adminToken });
    await t.server.services.library.waitForIdle();
  });
});

describe('privacy of statistics', () => {
  let alice: TestUser;
  let bob: TestUser;
  let pass: TestUser;
  beforeAll(async () => {
    alice = await makeUser(t);
    bob = await makeUser(t);
    pass = await makeUser(t, { role: 'Pass' });
    await logAll(alice, [['t1', '2026-06-01T10:00:00Z']]);
  });

  it('lets every account read a new user, whose statistics are public by default', async () => {
    for (const reader of [bob, pass]) {
      expect(await read(reader, 'top-tracks', { userId: alice.id })).toHaveLength(1);
    }
  });

  it('answers an unknown user with 404 user_not_found for every role', async () => {
    for (const reader of [bob, pass, { token: t.adminToken }]) {
      for (const path of ['listening-time', 'top-tracks', 'devices', 'heatmap', 'activity']) {
        const unknown = await refusal(reader, path, { userId: 'no-such-user' });
        expect(unknown).toMatchObject({ status: 404, code: 'user_not_found' });
      }
    }
  });

  it('lets an Admin read anyone', async () => {
    const admin = { token: t.adminToken };
    expect(await read(admin, 'listening-time', { userId: alice.id })).toMatchObject({ plays: 1 });
  });

  it('closes statistics to other accounts once the user makes them private, and opens them again', async () => {
    const closed = await postForm(t, '/api/users/settings', { publicStats: 'false' }, alice.token);
    expect(((await closed.json()) as { publicStats: boolean }).publicStats).toBe(false);
    for (const reader of [bob, pass]) {
      for (const path of ['recent-tracks', 'devices', 'heatmap']) {
        expect(await refusal(reader, path, { userId: alice.id })).toMatchObject({
          status: 401,
          code: 'stats_private',
          detail: `${alice.username} keeps their listening statistics private`,
        });
      }
    }
    await read({ token: t.adminToken }, 'devices', { userId: alice.id });
    const set = await postForm(t, '/api/users/settings', { publicStats: 'true' }, alice.token);
    expect(set.status).toBe(200);
    expect(((await set.json()) as { publicStats: boolean }).publicStats).toBe(true);
    for (const reader of [bob, pass]) {
      expect(await read(reader, 'recent-tracks', { userId: alice.id })).toHaveLength(1);
    }
    const bad = await postForm(t, '/api/users/settings', { publicStats: 'maybe' }, alice.token);
    expect(await problem(bad)).toMatchObject({ status: 400, parameter: 'publicStats' });
    await postForm(t, '/api/users/settings', { publicStats: 'false' }, alice.token);
    expect(await refusal(bob, 'recent-tracks', { userId: alice.id })).toMatchObject({ status: 401 });
  });
});

describe('durability', () => {
  it('keeps every acknowledged play across a restart', async () => {
    const user = await makeUser(t);
    await logAll(user, [
      ['t1', '2026-06-01T10:00:00Z'],
      ['t3', '2026-06-01T11:00:00Z'],
    ]);
    t = await t.restart();
    const token = await loginToken(t.call, user.username, user.password);
    const response = await t.call('/api/stats/listening-time', { token });
    expect(await response.json()).toMatchObject({ plays: 2, totalMs: 500_000 });
  });
});
