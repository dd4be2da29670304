import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SubsonicAPI } from 'subsonic-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, NewApiKey } from '../../server/contract/users.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { expectProblem, postJson, useTestServer } from '../support/server.js';
import { failsWith, ok, subsonicOnce } from './support.js';

/**
 * App passwords: a member makes one for each app, and the app signs in with it in whichever way it
 * was written to: a salted token (`t = md5(appPassword + s)`, what DSub, Ultrasonic and Sublime
 * Music send first), the plain or `enc:` password, or OpenSubsonic's `apiKey`.
 */
const t = useTestServer();

let member: TestUser;

beforeAll(async () => {
  member = await makeUser(t, { role: 'User', username: 'alex' });
});

/** Asks for an app password named `name` (for `userId`, when an Admin names a member). */
const askForAppPassword = (token: string, name: string, userId?: string) =>
  postJson(t, '/api/users/api-keys/create', { name, ...(userId ? { userId } : {}) }, token);

async function makeAppPassword(token: string, name: string, userId?: string): Promise<NewApiKey> {
  const response = await askForAppPassword(token, name, userId);
  expect(response.status).toBe(201);
  return (await response.json()) as NewApiKey;
}

async function appPasswordsOf(token: string, userId?: string): Promise<ApiKey[]> {
  const response = await t.call(`/api/users/api-keys${userId ? `?userId=${userId}` : ''}`, { token });
  expect(response.status).toBe(200);
  return (await response.json()) as ApiKey[];
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** The four ways an app may sign in with a username and an app password. */
function signIns(username: string, appPassword: string): Record<string, Record<string, string>> {
  const salt = 'a1b2c3d4e5';
  return {
    token: { u: username, t: md5(appPassword + salt), s: salt },
    plain: { u: username, p: appPassword },
    hex: { u: username, p: `enc:${Buffer.from(appPassword, 'utf8').toString('hex')}` },
    apiKey: { apiKey: appPassword },
  };
}

describe('an app password', () => {
  it('signs in a Subsonic client in salt-and-token mode (the subsonic-api client)', async () => {
    const made = await makeAppPassword(member.token, 'DSub on the phone');
    const client = new SubsonicAPI({ url: t.url, auth: { username: 'alex', password: made.key } });
    const pong = await client.ping();
    expect(pong).toMatchObject({ status: 'ok' });
    const user = (await client.getUser({ username: 'alex' })) as {
      status: string;
      user: { username: string };
    };
    expect(user.status).toBe('ok');
    expect(user.user.username).toBe('alex');
  });

  it('works with all four sign-ins, in XML and JSON, and none of them after it is revoked', async () => {
    const made = await makeAppPassword(member.token, 'Ultrasonic');
    for (const [kind, params] of Object.entries(signIns('alex', made.key))) {
      const answer = await ok(t, {}, 'getUser', { ...params, username: 'alex' });
      expect((answer.user as { username: string }).username, kind).toBe('alex');
    }
    const revoked = await postJson(t, '/api/users/api-keys/delete', { id: made.id }, member.token);
    expect(revoked.status).toBe(200);
    const codes: Record<string, number> = { token: 41, plain: 40, hex: 40, apiKey: 44 };
    for (const [kind, params] of Object.entries(signIns('alex', made.key)))
      await failsWith(t, {}, 'ping', params, codes[kind]!);
  });

  it('checks the token against every app password of the account, and only that account', async () => {
    const first = await makeAppPassword(member.token, 'Tempo');
    const second = await makeAppPassword(member.token, 'Feishin');
    const other = await makeUser(t);
    for (const key of [first.key, second.key]) {
      const salt = `salt-${key.slice(-6)}`;
      await ok(t, {}, 'ping', { u: 'alex', t: md5(key + salt), s: salt });
      // Upper-case hex is the same digest.
      await ok(t, {}, 'ping', { u: 'alex', t: md5(key + salt).toUpperCase(), s: salt });
      // Alex's app password is not a password of another member.
      await failsWith(t, {}, 'ping', { u: other.username, t: md5(key + salt), s: salt }, 41);
      await failsWith(t, {}, 'ping', { u: other.username, p: key }, 40);
    }
    // A token of another salt does not pass.
    await failsWith(t, {}, 'ping', { u: 'alex', t: md5(first.key + 'x'), s: 'y' }, 41);
  });

  it('shows when and by which app it was last used', async () => {
    const made = await makeAppPassword(member.token, 'Kitchen phone');
    expect((await appPasswordsOf(member.token)).find((key) => key.id === made.id)).toMatchObject({
      lastUsedAt: null,
      lastUsedBy: null,
      tokenSignIn: true,
    });
    const salt = 'c0ffee';
    await ok(t, {}, 'ping', { u: 'alex', t: md5(made.key + salt), s: salt, c: 'DSub' });
    await t.server.store.flush();
    await expect
      .poll(async () => (await appPasswordsOf(member.token)).find((key) => key.id === made.id))
      .toMatchObject({ lastUsedAt: new Date(t.clock.now()).toISOString(), lastUsedBy: 'DSub' });
    // Another app using it within the minute is recorded too.
    await ok(t, {}, 'ping', { apiKey: made.key, c: 'Symfonium' });
    await expect
      .poll(async () => (await appPasswordsOf(member.token)).find((key) => key.id === made.id)?.lastUsedBy)
      .toBe('Symfonium');
  });

  it('is kept encrypted in users.json, with a key of its own in a 0600 file', async () => {
    const made = await makeAppPassword(member.token, 'Sealed');
    await t.server.store.flush();
    const users = await readFile(join(t.dataDir, 'users.json'), 'utf8');
    expect(users).not.toContain(made.key.slice(6));
    const keyFile = join(t.dataDir, 'app-passwords.key');
    expect((await readFile(keyFile, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
    if (process.platform !== 'win32') expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await readFile(join(t.dataDir, 'secret.key'), 'utf8')).trim()).not.toBe(
      (await readFile(keyFile, 'utf8')).trim(),
    );
  });

  it('survives a restart: the sealed copy opens with the kept key', async () => {
    const made = await makeAppPassword(member.token, 'After restart');
    const restarted = Object.assign(t, await t.restart());
    const salt = 'feed42';
    const answer = await fetch(
      `${restarted.url}/rest/ping.view?v=1.16.1&c=test&f=json&u=alex&t=${md5(made.key + salt)}&s=${salt}`,
    );
    expect(
      ((await answer.json()) as { 'subsonic-response': { status: string } })['subsonic-response'].status,
    ).toBe('ok');
  });
});

describe('token sign-in', () => {
  it('refuses the account password with 41, saying to use an app password', async () => {
    const salt = '5a1t';
    const message = await failsWith(
      t,
      {},
      'ping',
      { u: 'alex', t: md5(member.password + salt), s: salt },
      41,
    );
    expect(message).toMatch(/use an app password/);
    // The same password sent plain still works.
    await ok(t, {}, 'ping', { u: 'alex', p: member.password });
  });

  it('counts wrong tokens as failed logins: after ten, even the right one waits', async () => {
    const guessed = await makeUser(t, { username: 'guessed' });
    const made = await makeAppPassword(guessed.token, 'Amperfy');
    for (let i = 0; i < 10; i += 1) {
      const wrong = await subsonicOnce(t, 'ping', { u: 'guessed', t: md5(`guess-${i}`), s: 'salt' }, 'json');
      expect(wrong.error?.code).toBe(41);
    }
    const message = await failsWith(
      t,
      {},
      'ping',
      { u: 'guessed', t: md5(made.key + 'salt'), s: 'salt' },
      40,
    );
    expect(message).toMatch(/Too many failed logins/);
  });

  it('needs both t and s', async () => {
    await failsWith(t, {}, 'ping', { u: 'alex', t: md5('x') }, 10);
    await failsWith(t, {}, 'ping', { u: 'alex', s: 'salt' }, 10);
  });

  it('does not work with a key made before app passwords (no sealed copy), which still works as apiKey', async () => {
    const older = 'melon_' + 'Q'.repeat(43);
    const added = await t.server.store.users.addApiKey(
      {
        id: 'older-key',
        userId: member.id,
        name: 'Old key',
        hash: createHash('sha256').update(older).digest('hex'),
        createdAt: t.clock.now(),
        lastUsedAt: null,
      },
      20,
    );
    expect(added).toBe('added');
    expect((await appPasswordsOf(member.token)).find((key) => key.id === 'older-key')?.tokenSignIn).toBe(
      false,
    );
    await ok(t, {}, 'ping', { apiKey: older });
    await ok(t, {}, 'ping', { u: 'alex', p: older });
    await failsWith(t, {}, 'ping', { u: 'alex', t: md5(older + 'abc'), s: 'abc' }, 41);
  });
});

describe('an Admin making an app password for a member', () => {
  it('makes one that acts as the member with their role, listed and revoked under the member', async () => {
    const pass = await makeUser(t, { role: 'Pass', username: 'wall-display' });
    const made = await makeAppPassword(t.adminToken, "Display's app", pass.id);
    const salt = 'abc123';
    const who = await ok(t, {}, 'getUser', {
      u: 'wall-display',
      t: md5(made.key + salt),
      s: salt,
      username: 'wall-display',
    });
    expect(who.user).toMatchObject({ username: 'wall-display', adminRole: false, scrobblingEnabled: false });
    // A Pass may not scrobble: the key has the member's role, not the Admin's.
    await failsWith(t, {}, 'scrobble', { apiKey: made.key, id: 'nothing' }, 50);
    expect((await appPasswordsOf(pass.token)).map((key) => key.name)).toEqual(["Display's app"]);
    expect((await appPasswordsOf(t.adminToken, pass.id)).map((key) => key.id)).toEqual([made.id]);
    expect((await appPasswordsOf(t.adminToken)).some((key) => key.id === made.id)).toBe(false);
    const gone = await postJson(
      t,
      '/api/users/api-keys/delete',
      { id: made.id, userId: pass.id },
      t.adminToken,
    );
    expect(gone.status).toBe(200);
    await failsWith(t, {}, 'ping', { apiKey: made.key }, 44);
  });

  it('is for Admins only; an unknown member is 404', async () => {
    const other = await makeUser(t);
    await expectProblem(await askForAppPassword(member.token, 'x', other.id), '401 forbidden_role');
    const listed = await t.call(`/api/users/api-keys?userId=${other.id}`, { token: member.token });
    await expectProblem(listed, '401 forbidden_role');
    await expectProblem(await askForAppPassword(t.adminToken, 'x', 'no-such-user'), '404 user_not_found');
    // Naming oneself is the same as naming nobody.
    await makeAppPassword(member.token, 'Mine', member.id);
  });
});
