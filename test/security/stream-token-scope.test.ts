import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import type { Track } from '../../server/contract/library.js';
import { makeUser, type TestUser, changePassword } from '../factories/users.js';
import { sha256 } from '../support/audio.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { postJson, problem, startTestServer, type TestServer, expectProblem } from '../support/server.js';

/**
 * The page's player puts its token in the audio address, where history, copies and screenshots can
 * leak it: only a short-lived stream token goes there, and it opens nothing but the audio.
 */
let t: TestServer;
let user: TestUser;
let track: Track & { path: string };

beforeAll(async () => {
  const { library } = await copyFixtureLibrary('melon-stream-token-');
  t = await startTestServer({ config: { libraryDirs: [library] } });
  user = await makeUser(t);
  const response = await t.call('/api/tracks?count=1000', { token: t.adminToken });
  const tracks = ((await response.json()) as { items: Array<Track & { path: string }> }).items;
  track = tracks.find((candidate) => candidate.path.endsWith('Tone MP3.mp3'))!;
  expect(track).toBeDefined();
}, 60_000);

afterAll(() => t.stop());

async function streamTokenOf(token: string): Promise<{ token: string; expiresAt: string }> {
  const response = await postJson(t, '/api/users/stream-token', {}, token);
  expect(response.status).toBe(200);
  return (await response.json()) as { token: string; expiresAt: string };
}

const streamAddress = (token: string) =>
  `/api/tracks/${encodeURIComponent(track.id)}/stream?access_token=${encodeURIComponent(token)}`;

const expectInvalid = (response: Response, what: string) =>
  expectProblem(response, '401 invalid_token', what);

describe('stream tokens in the audio address', () => {
  it('plays the track with a stream token in the address, for every reading role', async () => {
    const file = await readFile(track.path);
    const pass = await makeUser(t, { role: 'Pass' });
    for (const member of [user.token, pass.token, t.adminToken]) {
      const played = await t.call(streamAddress((await streamTokenOf(member)).token));
      expect(played.status).toBe(200);
      expect(sha256(new Uint8Array(await played.arrayBuffer()))).toBe(sha256(file));
    }
  });

  it('lasts twelve hours, far less than a login', async () => {
    const issued = await streamTokenOf(user.token);
    const claims = jwt.decode(issued.token) as { exp: number; iat: number; scope: string };
    expect(claims.scope).toBe('stream');
    expect(claims.exp - claims.iat).toBe(12 * 3600);
    expect(Date.parse(issued.expiresAt)).toBe(claims.exp * 1000);
    t.clock.advance(12 * 3600_000 + 1000);
    await expectInvalid(await t.call(streamAddress(issued.token)), 'expired stream token');
  });

  it('refuses a login token in the address, so a copied link never carries a whole session', async () => {
    await expectInvalid(await t.call(streamAddress(user.token)), 'login token');
    await expectInvalid(await t.call(streamAddress(t.adminToken)), 'admin login token');
  });

  it('refuses an app password in the address', async () => {
    const created = await postJson(t, '/api/users/api-keys/create', { name: 'phone' }, user.token);
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    await expectInvalid(await t.call(streamAddress(key)), 'app password');
  });

  it('refuses a stream token as a bearer token anywhere, the stream route included', async () => {
    const admin = (await streamTokenOf(t.adminToken)).token;
    const member = (await streamTokenOf(user.token)).token;
    await expectInvalid(await t.call('/api/users', { token: admin }), 'GET /api/users');
    await expectInvalid(await t.call('/auth/check', { token: member }), '/auth/check');
    await expectInvalid(
      await t.call(`/api/tracks/${encodeURIComponent(track.id)}/stream`, { token: member }),
      'bearer on the stream route',
    );
    await expectInvalid(await postJson(t, '/api/users/stream-token', {}, member), 'renewing itself');
    await expectInvalid(
      await postJson(t, '/api/users/change-password', { newPassword: 'taken over!!' }, member),
      'change-password',
    );
    await expectInvalid(
      await postJson(t, '/api/users/create', { username: 'intruder', password: 'intruder-pw' }, admin),
      'create a user',
    );
  });

  it('is good in the address of no other route', async () => {
    const member = (await streamTokenOf(user.token)).token;
    for (const path of [
      `/api/tracks/${encodeURIComponent(track.id)}`,
      `/api/tracks/${encodeURIComponent(track.id)}/download`,
      '/auth/check',
    ]) {
      const response = await t.call(`${path}?access_token=${encodeURIComponent(member)}`);
      expect(response.status, path).toBe(401);
      expect((await problem(response)).code, path).toBe('missing_token');
    }
  });

  it('ends with a password change, like every other session of the account', async () => {
    const member = await makeUser(t);
    const issued = (await streamTokenOf(member.token)).token;
    expect((await t.call(streamAddress(issued))).status).toBe(200);
    const changed = await changePassword(t, member.token, {
      currentPassword: member.password,
      newPassword: 'a new password',
    });
    expect(changed.status).toBe(200);
    await expectInvalid(await t.call(streamAddress(issued)), 'after a password change');
  });

  it('is not given to a Server token', async () => {
    const invite = await t.call('/auth/invite', { token: t.adminToken });
    const { code } = (await invite.json()) as { code: string };
    const exchanged = await t.call(`/auth/code-authenticate?code=${code}`);
    const { token: server } = (await exchanged.json()) as { token: string };
    const refused = await postJson(t, '/api/users/stream-token', {}, server);
    expect(refused.status).toBe(401);
    expect((await problem(refused)).code).toBe('forbidden_role');
  });
});
