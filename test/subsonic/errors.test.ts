import { createHash } from 'node:crypto';
import { describe, expect, it, beforeAll } from 'vitest';
import { ManualClock } from '../../server/clock.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { serverToken } from '../support/invites.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { ADMIN_PASSWORD, ADMIN_USER, loginToken, postJson, useTestServer } from '../support/server.js';
import {
  apiKeyFor,
  failsWith,
  ok,
  parseXmlAnswer,
  restUrl,
  subsonic,
  subsonicOnce,
  type Credentials,
  type SubsonicBody,
} from './support.js';

/** Every Subsonic error code Melon answers with, and what never reaches the request log. */
const t = useTestServer(async () => ({
  clock: new ManualClock(Date.now()),
  config: { libraryDirs: [(await copyFixtureLibrary('melon-subsonic-errors-')).library] },
}));

let user: TestUser;
let pass: TestUser;
let me: Credentials;
const admin: Credentials = { username: ADMIN_USER, password: ADMIN_PASSWORD };

beforeAll(async () => {
  user = await makeUser(t, { role: 'User' });
  pass = await makeUser(t, { role: 'Pass' });
  me = { username: user.username, password: user.password };
});

async function anyTrackId(): Promise<string> {
  const body = await ok(t, me, 'search3', { query: '', songCount: '1' });
  return (body.searchResult3 as { song: Array<{ id: string }> }).song[0]!.id;
}

describe('Subsonic errors', () => {
  it('10: a required parameter is missing (u, p, id)', async () => {
    expect(await failsWith(t, {}, 'ping', {}, 10)).toMatch(/'u'/);
    expect(await failsWith(t, {}, 'ping', { u: user.username }, 10)).toMatch(/'p'/);
    expect(await failsWith(t, me, 'getAlbum', {}, 10)).toMatch(/'id'/);
  });

  it('40: a wrong password, plain or enc: hex; the right one works both ways', async () => {
    await failsWith(t, { username: user.username, password: 'wrong password' }, 'ping', {}, 40);
    await failsWith(t, {}, 'ping', { u: 'nobody-here', p: 'whatever' }, 40);
    await ok(t, {}, 'ping', { u: user.username, p: `enc:${Buffer.from(user.password).toString('hex')}` });
    await failsWith(t, {}, 'ping', { u: user.username, p: 'enc:zz' }, 40);
  });

  it('41: token sign-in with the account password, with a message that says to use an app password', async () => {
    const salt = 'c19b2d';
    const digest = createHash('md5')
      .update(user.password + salt)
      .digest('hex');
    const message = await failsWith(t, {}, 'ping', { u: user.username, t: digest, s: salt }, 41);
    expect(message).toMatch(/use an app password/);
  });

  it('42: a mechanism Subsonic does not have (an Authorization header) points at apiKey and u + p', async () => {
    const key = await apiKeyFor(t, user.token);
    for (const authorization of [`Bearer ${key}`, `Bearer ${user.token}`, 'Basic dXNlcjpwYXNz']) {
      for (const format of ['xml', 'json'] as const) {
        const response = await fetch(restUrl(t, 'ping', format === 'json' ? { f: 'json' } : {}), {
          headers: { Authorization: authorization },
        });
        const text = await response.text();
        const body =
          format === 'json'
            ? (JSON.parse(text) as { 'subsonic-response': SubsonicBody })['subsonic-response']
            : (parseXmlAnswer(text) as SubsonicBody);
        expect(String(body.error?.code), authorization).toBe('42');
        expect(body.error?.message).toMatch(/apiKey/);
      }
    }
  });

  it('44: an unknown or deleted API key; a live one signs in as its user', async () => {
    const key = await apiKeyFor(t, user.token);
    await failsWith(t, {}, 'ping', { apiKey: 'melon_not-a-key-at-all' }, 44);
    await failsWith(t, {}, 'ping', { apiKey: 'something-else' }, 44);
    const scan = await subsonic(t, { apiKey: key }, 'getScanStatus');
    expect(scan.error?.code).toBe(50);
    const own = await ok(t, { apiKey: key }, 'getUser', { username: user.username });
    expect(own.user).toMatchObject({ username: user.username, adminRole: false, scrobblingEnabled: true });
    const listed = (await (await t.call('/api/users/api-keys', { token: user.token })).json()) as Array<{
      id: string;
    }>;
    for (const { id } of listed) {
      const deleted = await postJson(t, '/api/users/api-keys/delete', { id }, user.token);
      expect(deleted.status).toBe(200);
    }
    await failsWith(t, { apiKey: key }, 'ping', {}, 44);
  });

  it('43: conflicting mechanisms (apiKey with u, p, t or s; p with t + s)', async () => {
    const key = await apiKeyFor(t, user.token);
    await failsWith(t, {}, 'ping', { apiKey: key, u: user.username }, 43);
    await failsWith(t, {}, 'ping', { apiKey: key, p: 'x' }, 43);
    await failsWith(t, {}, 'ping', { apiKey: key, t: 'x', s: 'y' }, 43);
    await failsWith(t, {}, 'ping', { u: user.username, p: user.password, t: 'abc', s: 'def' }, 43);
  });

  it('50: a Pass may not scrobble, rate, star or make playlists; a User may not scan', async () => {
    const id = await anyTrackId();
    const guest = { username: pass.username, password: pass.password };
    await ok(t, guest, 'getSong', { id });
    await failsWith(t, guest, 'scrobble', { id, time: String(t.clock.now()) }, 50);
    await failsWith(t, guest, 'setRating', { id, rating: '3' }, 50);
    await failsWith(t, guest, 'star', { id }, 50);
    await failsWith(t, guest, 'createPlaylist', { name: 'x' }, 50);
    await failsWith(t, me, 'startScan', {}, 50);
    await failsWith(t, me, 'getScanStatus', {}, 50);
    await failsWith(t, me, 'getUser', { username: ADMIN_USER }, 50);
    const scan = await ok(t, admin, 'getScanStatus');
    expect(scan.scanStatus).toEqual({ scanning: false, count: 7 });
  });

  it("50: someone else's playlist cannot be changed or deleted", async () => {
    const made = await subsonicOnce(
      t,
      'createPlaylist',
      { u: ADMIN_USER, p: ADMIN_PASSWORD, name: 'Admin mix' },
      'json',
    );
    const id = (made.playlist as { id: string }).id;
    await failsWith(t, me, 'updatePlaylist', { playlistId: id, name: 'mine now' }, 50);
    await failsWith(t, me, 'deletePlaylist', { id }, 50);
    await ok(t, admin, 'getPlaylist', { id });
  });

  it('70: an unknown id, method or music folder', async () => {
    await failsWith(t, me, 'getAlbum', { id: 'no-such-album' }, 70);
    await failsWith(t, me, 'getSong', { id: '../../etc/passwd' }, 70);
    await failsWith(t, me, 'getCoverArt', { id: 'zz-nothing' }, 70);
    await failsWith(t, me, 'getArtists', { musicFolderId: '7' }, 70);
    await failsWith(t, me, 'getChatMessages', {}, 70);
    await failsWith(t, me, 'scrobble', { id: 'no-such-track' }, 70);
  });

  it('a Server token never works: not as a bearer, a password or an API key', async () => {
    const token = await serverToken(t);
    const response = await fetch(restUrl(t, 'ping', { f: 'json' }), {
      headers: { Authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { 'subsonic-response': { error: { code: number } } };
    expect(body['subsonic-response'].error.code).toBe(42);
    await failsWith(t, {}, 'ping', { u: 'admin', p: token }, 40);
    await failsWith(t, {}, 'ping', { apiKey: token }, 44);
  });

  it('shares the guessing limits of /auth/login: locked out here, locked out there', async () => {
    const victim = await makeUser(t, { role: 'User' });
    for (let i = 0; i < 10; i++)
      await subsonicOnce(t, 'ping', { u: victim.username, p: `guess-${i}` }, 'json');
    const locked = await subsonic(t, { username: victim.username, password: victim.password }, 'ping');
    expect(locked.error).toMatchObject({ code: 40, message: expect.stringMatching(/Too many/) as unknown });
    const login = await t.call('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: victim.username, password: victim.password }),
    });
    expect(login.status).toBe(429);
    t.clock.advance(16 * 60_000);
    await ok(t, { username: victim.username, password: victim.password }, 'ping');
    await loginToken(t.call, victim.username, victim.password);
  });

  it('writes the Subsonic error code and the client name on /rest/ lines of the request log', async () => {
    await subsonicOnce(t, 'ping', { u: 'nobody-at-all', p: 'wrong', c: 'Sublime Music' }, 'json');
    await subsonicOnce(t, 'ping', { u: user.username, p: user.password, c: 'DSub' }, 'xml');
    const failed = t.logs.find((line) => line.includes('/rest/ping.view') && line.includes('Sublime Music'));
    expect(failed).toMatch(/status=200 subsonicError=40 client="Sublime Music"/);
    const passed = t.logs.find((line) => line.includes('/rest/ping.view') && line.includes('client=DSub'));
    expect(passed).toMatch(/status=200 subsonicError=null client=DSub/);
  });

  it('keeps p, t, s and apiKey out of the request log, by GET and by POST', async () => {
    const secret = 'pw-that-must-not-be-logged';
    const apiKey = await apiKeyFor(t, user.token);
    await subsonicOnce(t, 'ping', { u: user.username, p: secret }, 'xml');
    await subsonicOnce(t, 'ping', { u: user.username, p: user.password }, 'xml', { post: true });
    await subsonicOnce(t, 'ping', { apiKey }, 'json');
    await subsonicOnce(t, 'ping', { apiKey }, 'xml', { post: true });
    await subsonicOnce(t, 'ping', { u: user.username, t: 'token-value-x', s: 'salt-value-y' }, 'json');
    const lines = t.logs.join('\n');
    expect(lines).toContain('/rest/ping.view');
    for (const value of [secret, user.password, apiKey, 'token-value-x', 'salt-value-y'])
      expect(lines).not.toContain(value);
  });
});
