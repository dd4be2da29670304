import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.js';
import { fakeScanner } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { postJson, useTestServer } from '../support/server.js';
import { ASTLEY_MBID, historyLibrary } from './library.js';
import { listenBrainz, playCount, recentPlays, scrobblerKey } from './support.js';

/**
 * A scrobbler's requests, written from ListenBrainz's API documentation (users/api/core and
 * users/json on listenbrainz.readthedocs.io): POST /1/submit-listens with `Authorization: Token`,
 * the three listen types, and GET /1/validate-token.
 */
const NOW = Date.parse('2026-06-15T12:00:00Z');
const t = useTestServer({ scanner: fakeScanner(historyLibrary()), clock: new ManualClock(NOW) });
let user: TestUser;
let pass: TestUser;
let userKey: string;
let passKey: string;

beforeAll(async () => {
  user = await makeUser(t);
  pass = await makeUser(t, { role: 'Pass' });
  userKey = await scrobblerKey(t, user);
  passKey = await scrobblerKey(t, pass);
});

/** The sample listen of the JSON documentation, at a given time. */
const sampleListen = (listenedAt: number) => ({
  listened_at: listenedAt,
  track_metadata: {
    additional_info: {
      release_mbid: 'bf9e91ea-8029-4a04-a26a-224e00a83266',
      artist_mbids: ['db92a151-1ac2-438b-bc43-b82e149ddd50'],
      recording_mbid: ASTLEY_MBID,
      tags: ['you', 'just', 'got', 'rick rolled!'],
      media_player: 'Web Scrobbler Test Player',
      submission_client: 'Web Scrobbler',
      duration_ms: 213000,
    },
    artist_name: 'Rick Astley',
    track_name: 'Never Gonna Give You Up',
    release_name: 'Whenever you need somebody',
  },
});

describe('GET /listenbrainz/1/validate-token', () => {
  it('answers valid with the user name for a good key, in the header or the token parameter', async () => {
    const byHeader = await listenBrainz(t, 'validate-token', { token: userKey });
    expect(byHeader.status).toBe(200);
    expect(await byHeader.json()).toEqual({
      code: 200,
      message: 'Token valid.',
      valid: true,
      user_name: user.username,
    });
    const byQuery = await listenBrainz(t, `validate-token?token=${encodeURIComponent(userKey)}`);
    expect(((await byQuery.json()) as { valid: boolean }).valid).toBe(true);
  });

  it('answers invalid for a bad key, and 400 in ListenBrainz shape without one', async () => {
    for (const token of ['not-a-real-key', `${userKey.slice(0, -2)}xx`, user.token]) {
      const bad = await listenBrainz(t, 'validate-token', { token });
      expect(bad.status).toBe(200);
      expect(await bad.json()).toEqual({ code: 200, message: 'Token invalid.', valid: false });
    }
    const none = await listenBrainz(t, 'validate-token');
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ code: 400, error: expect.any(String) as string });
  });
});

describe('POST /listenbrainz/1/submit-listens', () => {
  it('logs a single listen as a play at listened_at, on the media player, matched by recording MBID', async () => {
    const at = Math.floor(NOW / 1000) - 600;
    const response = await listenBrainz(t, 'submit-listens', {
      token: userKey,
      body: { listen_type: 'single', payload: [sampleListen(at)] },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    const [play] = await recentPlays(t, user);
    expect(play).toMatchObject({
      playedAt: new Date(at * 1000).toISOString(),
      device: 'Web Scrobbler Test Player',
    });
    expect(play!.track.id).toBe('never');
  });

  it("counts a scrobbler's retry of the same listen once", async () => {
    const before = await playCount(t, user);
    const at = Math.floor(NOW / 1000) - 1200;
    for (let i = 0; i < 3; i += 1) {
      const response = await listenBrainz(t, 'submit-listens', {
        token: userKey,
        body: { listen_type: 'single', payload: [sampleListen(at)] },
      });
      expect(response.status).toBe(200);
    }
    expect(await playCount(t, user)).toBe(before + 1);
  });

  it('shows playing_now as now playing and never logs it as a play', async () => {
    const before = await playCount(t, user);
    const nowPlaying: Partial<ReturnType<typeof sampleListen>> = sampleListen(0);
    delete nowPlaying.listened_at;
    const response = await listenBrainz(t, 'submit-listens', {
      token: userKey,
      body: { listen_type: 'playing_now', payload: [nowPlaying] },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(await playCount(t, user)).toBe(before);
    expect(t.server.services.nowPlaying.list()).toEqual([
      expect.objectContaining({ userId: user.id, trackId: 'never', client: 'Web Scrobbler Test Player' }),
    ]);
  });

  it('imports several listens, matching names folded (accents, feat., remaster suffixes)', async () => {
    const base = Math.floor(Date.parse('2026-05-01T10:00:00Z') / 1000);
    const listen = (offset: number, artist: string, track: string, release?: string) => ({
      listened_at: base + offset,
      track_metadata: { artist_name: artist, track_name: track, ...(release && { release_name: release }) },
    });
    const response = await listenBrainz(t, 'submit-listens', {
      token: userKey,
      body: {
        listen_type: 'import',
        payload: [
          listen(0, 'Beyonce feat. Jay-Z', 'Crazy In Love', 'Dangerously In Love'),
          listen(300, 'The Beatles', 'Here Comes The Sun (Remastered 2009)', 'Abbey Road'),
          listen(600, 'BEATLES', 'something'),
          listen(900, 'Nobody Here', 'Not In The Library'),
        ],
      },
    });
    expect(response.status).toBe(200);
    const plays = await recentPlays(t, user);
    const inMay = plays.filter((p) => p.playedAt.startsWith('2026-05-01'));
    expect(inMay.map((p) => p.track.id)).toEqual(['something', 'sun', 'crazy']);
  });

  it('counts a log-play and a later listen in its second once, and a listen and a later log-play at its time once', async () => {
    const before = await playCount(t, user);
    const first = Date.parse('2026-04-01T08:00:00.250Z');
    const logPlay = (iso: string) =>
      postJson(t, '/api/stats/log-play', { id: 'never', dateTime: iso }, user.token).then((r) => r.status);
    expect(await logPlay(new Date(first).toISOString())).toBe(200);
    const scrobble = (seconds: number) =>
      listenBrainz(t, 'submit-listens', {
        token: userKey,
        body: { listen_type: 'single', payload: [sampleListen(seconds)] },
      });
    expect((await scrobble(Math.floor(first / 1000))).status).toBe(200);
    const second = Date.parse('2026-04-02T08:00:00Z');
    expect((await scrobble(second / 1000)).status).toBe(200);
    // A log-play after the listen: the contract's retry rule, the listen's own time to the second.
    expect(await logPlay('2026-04-02T08:00:00Z')).toBe(200);
    expect(await playCount(t, user)).toBe(before + 2);
  });

  it('accepts a browser-extension scrobbler (an Origin of another scheme) and answers CORS', async () => {
    const response = await listenBrainz(t, 'validate-token', {
      token: userKey,
      headers: { Origin: 'chrome-extension://hhinaapppaileiechjoiifaancjggfjm' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses without a token, with a bad token and for a Pass account: 401 {code, error}', async () => {
    const body = { listen_type: 'single', payload: [sampleListen(Math.floor(NOW / 1000))] };
    for (const token of [null, 'bad-key', passKey]) {
      const response = await listenBrainz(t, 'submit-listens', { token, body });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ code: 401, error: expect.any(String) as string });
    }
  });

  it('refuses what ListenBrainz refuses with 400 {code, error}, and logs nothing', async () => {
    const before = await playCount(t, user);
    const at = Math.floor(NOW / 1000) - 60;
    const big = sampleListen(at);
    big.track_metadata.additional_info.tags = Array.from({ length: 40 }, (_, i) =>
      `tag ${i} `.padEnd(300, 'x'),
    );
    const cases: unknown[] = [
      { listen_type: 'sometimes', payload: [sampleListen(at)] },
      { listen_type: 'single', payload: [] },
      { listen_type: 'single', payload: [sampleListen(at), sampleListen(at - 1)] },
      { listen_type: 'playing_now', payload: [sampleListen(at)] },
      { listen_type: 'import', payload: Array.from({ length: 1001 }, (_, i) => sampleListen(at - i)) },
      { listen_type: 'single', payload: [big] },
      { listen_type: 'single', payload: [{ listened_at: at, track_metadata: { artist_name: 'x' } }] },
      { listen_type: 'single', payload: [sampleListen(1_000_000_000)] },
      {
        listen_type: 'import',
        payload: [sampleListen(at), { listened_at: 'yesterday', track_metadata: {} }],
      },
    ];
    for (const body of cases) {
      const response = await listenBrainz(t, 'submit-listens', { token: userKey, body });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(await response.json()).toEqual({ code: 400, error: expect.any(String) as string });
    }
    const notJson = await listenBrainz(t, 'submit-listens', {
      token: userKey,
      raw: '{"listen_type": ',
    });
    expect(notJson.status).toBe(400);
    expect(await playCount(t, user)).toBe(before);
  });
});

describe('a deleted API key', () => {
  it('is invalid for validate-token and refused by submit-listens', async () => {
    const made = await t.call('/api/users/api-keys/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Old phone' }),
      token: user.token,
    });
    const { id, key } = (await made.json()) as { id: string; key: string };
    expect(
      ((await (await listenBrainz(t, 'validate-token', { token: key })).json()) as { valid: boolean }).valid,
    ).toBe(true);
    const removed = await t.call('/api/users/api-keys/delete', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
      token: user.token,
    });
    expect(removed.status).toBeLessThan(300);
    expect(
      ((await (await listenBrainz(t, 'validate-token', { token: key })).json()) as { valid: boolean }).valid,
    ).toBe(false);
    const submit = await listenBrainz(t, 'submit-listens', {
      token: key,
      body: { listen_type: 'single', payload: [sampleListen(Math.floor(NOW / 1000) - 5)] },
    });
    expect(submit.status).toBe(401);
  });
});

describe('other ListenBrainz paths', () => {
  it('answers 404 for endpoints Melon does not serve and 405 for the wrong method, in ListenBrainz shape', async () => {
    const missing = await listenBrainz(t, 'user/someone/listens', { token: userKey });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: 404, error: expect.any(String) as string });
    const wrong = await listenBrainz(t, 'submit-listens', { token: userKey });
    expect(wrong.status).toBe(405);
  });
});
