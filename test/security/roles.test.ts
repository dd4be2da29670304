import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import type { User } from '../../server/contract/users.js';
import { changePassword, makeUser } from '../factories/users.js';
import { createInvite, serverToken } from '../support/invites.js';
import { loginToken, postForm, postJson, problem, useTestServer, expectProblem } from '../support/server.js';
import { signingKey } from '../support/tokens.js';

/**
 * Roles: the Server token (an exchanged invite code) may make exactly one User and nothing else,
 * and no caller can raise a role through user creation or the account endpoints.
 */
const t = useTestServer();
let secret: Buffer;
beforeAll(async () => {
  secret = await signingKey(t);
});
// Fresh invite and guessing windows for every test.
beforeEach(() => t.clock.advance(11 * 60_000));

const users = async () => (await (await t.call('/api/users', { token: t.adminToken })).json()) as User[];
const roleOf = async (username: string) => (await users()).find((u) => u.username === username)?.role;
const sign = (claims: object) => jwt.sign(claims, secret, { algorithm: 'HS256' });

describe('the Server token', () => {
  it('makes a User whatever role it asks for, by query, form, JSON, repeated or nested', async () => {
    const attempts: Array<(token: string, name: string) => Promise<Response>> = [
      (token, name) =>
        t.call(`/api/users/create?username=${name}&password=long-enough-pw&role=Admin`, {
          method: 'POST',
          token,
        }),
      (token, name) =>
        postForm(
          t,
          '/api/users/create',
          { username: name, password: 'long-enough-pw', role: 'Admin' },
          token,
        ),
      (token, name) =>
        postJson(
          t,
          '/api/users/create',
          { username: name, password: 'long-enough-pw', role: ['Admin'] },
          token,
        ),
      (token, name) =>
        t.call(`/api/users/create?role=Admin&role=User`, {
          method: 'POST',
          token,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `username=${name}&password=long-enough-pw&role=Admin&role=Pass`,
        }),
    ];
    for (const [i, attempt] of attempts.entries()) {
      const name = `device-${i}`;
      const response = await attempt(await serverToken(t), name);
      expect(response.status, name).toBe(201);
      expect(await response.json()).toMatchObject({ username: name, role: 'User' });
      expect(await roleOf(name)).toBe('User');
    }
  });

  it('makes one user even when many creations race with it', async () => {
    const token = await serverToken(t);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postJson(t, '/api/users/create', { username: `racer-${i}`, password: 'long-enough-pw' }, token),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 401, 401, 401, 401, 401]);
    expect((await users()).filter((u) => u.username.startsWith('racer-'))).toHaveLength(1);
  });

  it('cannot be forged from an account token or revived after use, even with the signing key', async () => {
    const admin = jwt.decode(t.adminToken) as Record<string, unknown>;
    const used = await serverToken(t);
    const first = { username: 'first-device', password: 'long-enough-pw' };
    expect((await postJson(t, '/api/users/create', first, used)).status).toBe(201);
    const now = Math.floor(t.clock.now() / 1000);
    const forged = [
      sign({ ...admin, role: 'Server' }),
      sign({ ...admin, role: 'Server', invite: 'no-such-invite' }),
      // The spent token, re-signed with a new id and lifetime.
      sign({ ...(jwt.decode(used) as object), jti: 'fresh', iat: now, exp: now + 600 }),
    ];
    for (const token of forged) {
      const response = await postJson(
        t,
        '/api/users/create',
        { username: 'forged', password: 'long-enough-pw' },
        token,
      );
      await expectProblem(response, '401 invalid_token');
    }
    expect(await roleOf('forged')).toBeUndefined();
  });

  it("does not become an Admin by carrying an Admin's user id", async () => {
    const admin = jwt.decode(t.adminToken) as { sub: string };
    const server = jwt.decode(await serverToken(t)) as Record<string, unknown>;
    const token = sign({ ...server, sub: admin.sub, name: 'admin' });
    for (const path of ['/api/users', '/auth/invite', '/auth/check']) {
      const response = await t.call(path, { token });
      expect(response.status, path).toBe(401);
      expect((await problem(response)).code, path).toBe('forbidden_role');
    }
  });

  it('gives the device a User token that cannot make users or invites', async () => {
    const token = await serverToken(t);
    await postJson(t, '/api/users/create', { username: 'speaker-x', password: 'long-enough-pw' }, token);
    const device = await loginToken(t.call, 'speaker-x', 'long-enough-pw');
    const create = await postJson(
      t,
      '/api/users/create',
      { username: 'sneaky', password: 'long-enough-pw' },
      device,
    );
    expect((await problem(create)).code).toBe('forbidden_role');
    expect((await problem(await t.call('/auth/invite', { token: device }))).code).toBe('forbidden_role');
  });
});

describe('role escalation by accounts', () => {
  it('User and Pass accounts cannot create users, and nothing is written', async () => {
    for (const role of ['User', 'Pass'] as const) {
      const caller = await makeUser(t, { role });
      const before = await readFile(join(t.dataDir, 'users.json'), 'utf8');
      const response = await postJson(
        t,
        '/api/users/create',
        { username: `by-${role}`, password: 'long-enough-pw', role: 'Admin' },
        caller.token,
      );
      expect(response.status).toBe(401);
      expect((await problem(response)).code).toBe('forbidden_role');
      expect(await readFile(join(t.dataDir, 'users.json'), 'utf8')).toBe(before);
    }
  });

  it('an Admin cannot mint a Server account or a role in another spelling', async () => {
    for (const role of ['Server', 'admin', 'ADMIN', 'Admin ', 'root']) {
      const response = await postForm(
        t,
        '/api/users/create',
        { username: 'odd-role', password: 'long-enough-pw', role },
        t.adminToken,
      );
      expect(response.status, role).toBe(400);
      expect(await problem(response)).toMatchObject({ code: 'invalid_parameter', parameter: 'role' });
    }
    expect(await roleOf('odd-role')).toBeUndefined();
  });

  it('a User cannot raise its role through its settings or a password change', async () => {
    const user = await makeUser(t);
    const settings = await postForm(
      t,
      '/api/users/settings',
      { publicStats: 'true', role: 'Admin' },
      user.token,
    );
    expect(settings.status).toBe(200);
    expect(await settings.json()).toMatchObject({ role: 'User' });
    const change = await changePassword(t, user.token, {
      currentPassword: user.password,
      newPassword: 'another long pw',
      role: 'Admin',
    });
    expect(change.status).toBe(200);
    expect(await roleOf(user.username)).toBe('User');
    const admin = (await users()).find((u) => u.role === 'Admin')!;
    const takeover = await postJson(
      t,
      '/api/users/change-password',
      { userId: admin.id, newPassword: 'i am the admin now' },
      await loginToken(t.call, user.username, 'another long pw'),
    );
    expect(takeover.status).toBe(401);
    expect((await problem(takeover)).code).toBe('forbidden_role');
  });

  it('an invite code is made by Admins only and is not an account', async () => {
    const { code } = await createInvite(t);
    const login = await postJson(t, '/auth/login', { username: code, password: code });
    expect(login.status).toBe(401);
  });
});
