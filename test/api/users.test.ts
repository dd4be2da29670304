import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ListedUser } from '../../server/contract/users.js';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { changePassword, makeUser } from '../factories/users.js';
import {
  ADMIN_PASSWORD,
  loginToken,
  postForm,
  postJson,
  problem,
  startTestServer,
  useTestServer,
} from '../support/server.js';
import { expectTokenRefused } from '../support/tokens.js';

const t = useTestServer();
beforeEach(() => t.clock.advance(16 * 60_000));

/** The users as `server`'s Admin lists them. */
async function listedUsers(server: typeof t): Promise<ListedUser[]> {
  const response = await server.call('/api/users', { token: server.adminToken });
  expect(response.status).toBe(200);
  return (await response.json()) as ListedUser[];
}

describe('POST /api/users/create', () => {
  it('makes users of each role with 201 and the public fields only', async () => {
    for (const role of ['Admin', 'User', 'Pass']) {
      const response = await postForm(
        t,
        '/api/users/create',
        { username: `new-${role}`, password: 'long enough', role },
        t.adminToken,
      );
      expect(response.status).toBe(201);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ username: `new-${role}`, role });
      expect(body.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(JSON.stringify(body)).not.toMatch(/hash|salt/i);
    }
    const defaulted = await postJson(
      t,
      '/api/users/create',
      { username: 'default-role', password: 'long enough' },
      t.adminToken,
    );
    expect(await defaulted.json()).toMatchObject({ role: 'User' });
  });

  it('refuses bad input with 400 naming the parameter and adds nobody', async () => {
    const before = await readFile(join(t.dataDir, 'users.json'), 'utf8');
    const cases: Array<[Record<string, string>, string]> = [
      [{ password: 'long enough' }, 'username'],
      [{ username: 'x'.repeat(65), password: 'long enough' }, 'username'],
      [{ username: ' padded', password: 'long enough' }, 'username'],
      [{ username: 'shorty' }, 'password'],
      [{ username: 'shorty', password: 'short' }, 'password'],
      [{ username: 'shorty', password: 'p'.repeat(257) }, 'password'],
      [{ username: 'shorty', password: 'long enough', role: 'Server' }, 'role'],
      [{ username: 'shorty', password: 'long enough', role: 'root' }, 'role'],
    ];
    for (const [fields, parameter] of cases) {
      const response = await postForm(t, '/api/users/create', fields, t.adminToken);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await problem(response)).toMatchObject({ code: 'invalid_parameter', parameter });
    }
    expect(await readFile(join(t.dataDir, 'users.json'), 'utf8')).toBe(before);
  });

  it('answers 409 for a name that differs only in case, even when two requests race', async () => {
    await makeUser(t, { username: 'Marta' });
    const clash = await postJson(
      t,
      '/api/users/create',
      { username: 'MARTA', password: 'long enough' },
      t.adminToken,
    );
    expect(clash.status).toBe(409);
    expect((await problem(clash)).code).toBe('username_taken');
    const racing = await Promise.all(
      [1, 2, 3].map(() =>
        postJson(t, '/api/users/create', { username: 'twin', password: 'long enough' }, t.adminToken),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('stores scrypt hashes with their parameters, never the password', async () => {
    await makeUser(t, { username: 'hashed', password: 'plain-text-never' });
    const file = await readFile(join(t.dataDir, 'users.json'), 'utf8');
    expect(file).not.toContain('plain-text-never');
    const user = (JSON.parse(file) as { users: Array<Record<string, unknown>> }).users.find(
      (u) => u.username === 'hashed',
    )!;
    expect(user.passwordHash).toMatchObject({ algorithm: 'scrypt', N: 32768, r: 8, p: 1 });
    expect(user).toMatchObject({
      publicStats: true,
      publicStatsChosen: false,
      tokenVersion: 0,
      lastLogin: expect.any(Number),
    });
  });
});

describe('GET /api/users, POST /api/users/settings', () => {
  it('lists users without hashes for an Admin', async () => {
    const response = await t.call('/api/users', { token: t.adminToken });
    const users = (await response.json()) as Array<Record<string, unknown>>;
    expect(users.length).toBeGreaterThan(0);
    for (const user of users) {
      expect(Object.keys(user).sort()).toEqual([
        'createdAt',
        'id',
        'lastActivity',
        'lastLogin',
        'publicStats',
        'role',
        'username',
      ]);
    }
  });

  it('lets any account change its own publicStats', async () => {
    const pass = await makeUser(t, { role: 'Pass' });
    const response = await postForm(t, '/api/users/settings', { publicStats: 'true' }, pass.token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: pass.id, publicStats: true });
    const bad = await postForm(t, '/api/users/settings', { publicStats: 'maybe' }, pass.token);
    expect(await problem(bad)).toMatchObject({ status: 400, parameter: 'publicStats' });
  });
});

describe('token revocation', () => {
  it('refuses the old token of a user whose password changed, and accepts the new one', async () => {
    const user = await makeUser(t);
    const wrong = await changePassword(t, user.token, {
      currentPassword: 'wrong-one',
      newPassword: 'brand new pw',
    });
    expect(wrong.status).toBe(401);
    const changed = await changePassword(t, user.token, {
      currentPassword: user.password,
      newPassword: 'brand new pw',
    });
    expect(changed.status).toBe(200);
    await expectTokenRefused(t, user.token);
    const fresh = await loginToken(t.call, user.username, 'brand new pw');
    expect((await t.call('/auth/check', { token: fresh })).status).toBe(200);
  });

  it('lets an Admin reset a password (revoking the old tokens) but not a User', async () => {
    const user = await makeUser(t);
    const other = await makeUser(t);
    const denied = await changePassword(t, user.token, { userId: other.id, newPassword: 'hijacked pw' });
    expect(denied.status).toBe(401);
    const reset = await changePassword(t, t.adminToken, { userId: user.id, newPassword: 'reset by admin' });
    expect(reset.status).toBe(200);
    expect((await t.call('/auth/check', { token: user.token })).status).toBe(401);
  });

  it("refuses a deleted user's token", async () => {
    const user = await makeUser(t, { role: 'Pass' });
    expect((await t.call('/auth/check', { token: user.token })).status).toBe(200);
    const deleted = await postForm(t, '/api/users/delete', { id: user.id }, t.adminToken);
    expect(deleted.status).toBe(200);
    expect((await t.call('/auth/check', { token: user.token })).status).toBe(401);
    expect((await postForm(t, '/api/users/delete', { id: user.id }, t.adminToken)).status).toBe(404);
    expect((await postForm(t, '/api/users/delete', { id: '../users' }, t.adminToken)).status).toBe(404);
  });

  it('keeps the last Admin', async () => {
    const own = await startTestServer();
    try {
      const admins = await listedUsers(own);
      const response = await postForm(own, '/api/users/delete', { id: admins[0]!.id }, own.adminToken);
      expect(response.status).toBe(409);
      expect((await problem(response)).code).toBe('last_admin');
    } finally {
      await own.stop();
    }
  });

  it('keeps one Admin when every Admin deletes itself at once', async () => {
    const own = await startTestServer();
    try {
      const [first] = await listedUsers(own);
      const admins = [{ id: first!.id, token: own.adminToken }];
      for (let i = 0; i < 4; i++) admins.push(await makeUser(own, { role: 'Admin' }));
      // Each deletes its own account, so no request is refused for a token already revoked.
      const responses = await Promise.all(
        admins.map(({ id, token }) => postForm(own, '/api/users/delete', { id }, token)),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 409]);
      const refused = responses.find((response) => response.status === 409)!;
      expect((await problem(refused)).code).toBe('last_admin');
      const stored = JSON.parse(await readFile(join(own.dataDir, 'users.json'), 'utf8')) as {
        users: Array<{ role: string }>;
      };
      expect(stored.users.filter((user) => user.role === 'Admin')).toHaveLength(1);
    } finally {
      await own.stop();
    }
  });
});

describe('GET /auth/check', () => {
  it('describes the token for Admin, User and Pass', async () => {
    const pass = await makeUser(t, { role: 'Pass' });
    const response = await t.call('/auth/check', { token: pass.token });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ valid: true, userId: pass.id, username: pass.username, role: 'Pass' });
    expect(body.expiresAt).toMatch(/Z$/);
  });
});

describe('POST /api/users/role', () => {
  it('changes a role and revokes the old tokens', async () => {
    const user = await makeUser(t);
    const response = await postForm(t, '/api/users/role', { id: user.id, role: 'Pass' }, t.adminToken);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: user.id, role: 'Pass' });
    expect((await t.call('/auth/check', { token: user.token })).status).toBe(401);
    const again = await loginToken(t.call, user.username, user.password);
    expect(await (await t.call('/auth/check', { token: again })).json()).toMatchObject({ role: 'Pass' });
  });

  it('refuses bad parameters (400, nothing changed), unknown users (404) and non-Admins (401)', async () => {
    const user = await makeUser(t);
    for (const fields of [{ id: user.id, role: 'admin' }, { id: user.id }, { role: 'User' }] as Record<
      string,
      string
    >[]) {
      const response = await postForm(t, '/api/users/role', fields, t.adminToken);
      expect(response.status).toBe(400);
      expect((await problem(response)).code).toBe('invalid_parameter');
    }
    expect((await t.call('/auth/check', { token: user.token })).status).toBe(200);
    const unknown = await postForm(t, '/api/users/role', { id: 'nobody', role: 'User' }, t.adminToken);
    expect(await problem(unknown)).toMatchObject({ status: 404, code: 'user_not_found' });
    const denied = await postForm(t, '/api/users/role', { id: user.id, role: 'Admin' }, user.token);
    expect(await problem(denied)).toMatchObject({ status: 401, code: 'forbidden_role' });
  });

  it('keeps the last Admin an Admin', async () => {
    const own = await startTestServer();
    try {
      const [admin] = await listedUsers(own);
      const response = await postForm(
        own,
        '/api/users/role',
        { id: admin!.id, role: 'User' },
        own.adminToken,
      );
      expect(await problem(response)).toMatchObject({ status: 409, code: 'last_admin' });
      const second = await makeUser(own, { role: 'Admin' });
      expect(
        (await postForm(own, '/api/users/role', { id: admin!.id, role: 'User' }, second.token)).status,
      ).toBe(200);
    } finally {
      await own.stop();
    }
  });
});

describe('GET /api/users: last activity', () => {
  it('gives the time of each user’s latest play, null before the first', async () => {
    const own = await startTestServer({
      scanner: fakeScanner(makeLibrary({ artists: [], albums: [], tracks: [{ id: 't1' }] })),
    });
    try {
      await own.call('/api/library/scan', { method: 'POST', token: own.adminToken });
      await own.server.services.library.waitForIdle();
      const user = await makeUser(own);
      expect((await listedUsers(own)).find((u) => u.id === user.id)?.lastActivity).toBeNull();
      await postForm(own, '/api/stats/log-play', { id: 't1', dateTime: '2026-01-02T03:04:05Z' }, user.token);
      await postForm(own, '/api/stats/log-skip', { id: 't1' }, user.token);
      expect((await listedUsers(own)).find((u) => u.id === user.id)?.lastActivity).toBe(
        '2026-01-02T03:04:05.000Z',
      );
    } finally {
      await own.stop();
    }
  });
});

describe('publicStats default and the users file migration', () => {
  it('keeps every stored version-1 value as a choice, and new users get public statistics', async () => {
    const own = await startTestServer();
    const user = await makeUser(own);
    const path = join(own.dataDir, 'users.json');
    await own.stop(true);
    // Rewrite the file as a version-1 Melon left it: no marker, both values present.
    const file = JSON.parse(await readFile(path, 'utf8')) as {
      schemaVersion: number;
      users: Array<Record<string, unknown>>;
    };
    file.schemaVersion = 1;
    for (const record of file.users) {
      delete record.publicStatsChosen;
      record.publicStats = record.id === user.id;
    }
    await writeFile(path, JSON.stringify(file));
    const restarted = await startTestServer({ dataDir: own.dataDir });
    try {
      const migrated = JSON.parse(await readFile(path, 'utf8')) as typeof file;
      expect(migrated.schemaVersion).toBe(2);
      expect(migrated.users.map((u) => [u.id === user.id, u.publicStats, u.publicStatsChosen])).toEqual(
        expect.arrayContaining([
          [true, true, true],
          [false, false, true],
        ]),
      );
      const fresh = await makeUser(restarted);
      expect((await listedUsers(restarted)).find((u) => u.id === fresh.id)?.publicStats).toBe(true);
    } finally {
      await restarted.stop();
    }
  });
});

describe('restart', () => {
  it('keeps users, the signing secret and therefore tokens', async () => {
    const own = await startTestServer();
    const user = await makeUser(own);
    const restarted = await own.restart();
    try {
      expect((await restarted.call('/auth/check', { token: user.token })).status).toBe(200);
      expect((await restarted.call('/auth/check', { token: own.adminToken })).status).toBe(200);
      await loginToken(restarted.call, user.username, user.password);
      await loginToken(restarted.call, 'admin', ADMIN_PASSWORD);
    } finally {
      await restarted.stop();
    }
  });
});
