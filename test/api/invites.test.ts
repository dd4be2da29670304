import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { makeUser } from '../factories/users.js';
import { createInvite, serverToken } from '../support/invites.js';
import {
  postForm,
  postJson,
  problem,
  startTestServer,
  type TestServer,
  useTestServer,
  expectProblem,
} from '../support/server.js';

const ALPHABET = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{4}$/;
const t = useTestServer();
// Each test starts with no active codes and fresh guessing windows.
beforeEach(() => t.clock.advance(11 * 60_000));

/** A device makes its account with the Server token its invite code was exchanged for. */
const createAccount = (token: string, account: { username: string; password: string; role?: string }) =>
  postJson(t, '/api/users/create', account, token);

/** A device that asks for an Admin account: made, with the role its invite gave, never Admin. */
async function accountAskingForAdmin(token: string, username: string): Promise<unknown> {
  const created = await createAccount(token, { username, password: `${username}-pw`, role: 'Admin' });
  expect(created.status).toBe(201);
  return created.json();
}

describe('GET /auth/invite', () => {
  it('makes a four-character code from the alphabet, valid 10 minutes', async () => {
    const invite = await createInvite(t);
    expect(invite.code).toMatch(ALPHABET);
    expect(Date.parse(invite.expiresAt) - t.clock.now()).toBe(10 * 60_000);
    expect(invite.expiresAt).toMatch(/Z$/);
  });

  it('refuses Users and Pass accounts with 401 forbidden_role', async () => {
    for (const role of ['User', 'Pass'] as const) {
      const user = await makeUser(t, { role });
      const response = await t.call('/auth/invite', { token: user.token });
      expect(response.status).toBe(401);
      expect((await problem(response)).code).toBe('forbidden_role');
    }
  });

  it('allows 5 active codes; the 6th is 408 until one expires or is used', async () => {
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await createInvite(t)).code);
    expect(new Set(codes).size).toBe(5);
    const sixth = await t.call('/auth/invite', { token: t.adminToken });
    expect(sixth.status).toBe(408);
    expect((await problem(sixth)).code).toBe('too_many_invites');

    // A used code frees its slot at once.
    expect((await t.call(`/auth/code-authenticate?code=${codes[0]}`)).status).toBe(200);
    expect((await t.call('/auth/invite', { token: t.adminToken })).status).toBe(200);
    expect((await t.call('/auth/invite', { token: t.adminToken })).status).toBe(408);

    // Expired codes free theirs.
    t.clock.advance(10 * 60_000);
    for (let i = 0; i < 5; i++)
      expect((await t.call('/auth/invite', { token: t.adminToken })).status).toBe(200);
  });

  it('lists the active codes for the settings window', async () => {
    const invite = await createInvite(t);
    const list = (await (await t.call('/auth/invites', { token: t.adminToken })).json()) as unknown[];
    expect(list).toEqual([invite]);
    expect(invite).toMatchObject({ state: 'active', joinedAs: null });
  });

  it('with all=true lists what became of each code of the last day: joined as whom, used, revoked', async () => {
    const joined = await createInvite(t);
    const exchange = await t.call(`/auth/code-authenticate?code=${joined.code}`);
    const { token } = (await exchange.json()) as { token: string };
    const used = await createInvite(t);
    await t.call(`/auth/code-authenticate?code=${used.code}`);
    const tablet = await createAccount(token, { username: 'hall-tablet', password: 'hall-tablet-pw' });
    expect(tablet.status).toBe(201);
    const revoked = await createInvite(t);
    await postJson(t, '/auth/invites/revoke', { code: revoked.code }, t.adminToken);
    const active = await createInvite(t);
    const all = (await (await t.call('/auth/invites?all=true', { token: t.adminToken })).json()) as Array<{
      code: string;
      state: string;
      joinedAs: string | null;
    }>;
    const stateOf = (code: string) => all.find((invite) => invite.code === code);
    expect(stateOf(joined.code)).toMatchObject({ state: 'joined', joinedAs: 'hall-tablet' });
    expect(stateOf(used.code)).toMatchObject({ state: 'used', joinedAs: null });
    expect(stateOf(revoked.code)).toMatchObject({ state: 'revoked' });
    expect(stateOf(active.code)).toMatchObject({ state: 'active' });
    t.clock.advance(10 * 60_000 + 1);
    const later = (await (await t.call('/auth/invites?all=true', { token: t.adminToken })).json()) as Array<{
      code: string;
      state: string;
    }>;
    expect(later.find((invite) => invite.code === active.code)?.state).toBe('expired');
    const bad = await t.call('/auth/invites?all=maybe', { token: t.adminToken });
    expect(await problem(bad)).toMatchObject({ status: 400, parameter: 'all' });
  });
});

describe('POST /auth/invites/revoke', () => {
  it('revokes an active code (any case): it can no longer be exchanged and frees its slot', async () => {
    const invite = await createInvite(t);
    const response = await postJson(
      t,
      '/auth/invites/revoke',
      { code: invite.code.toLowerCase() },
      t.adminToken,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ code: invite.code, state: 'revoked' });
    expect((await t.call(`/auth/code-authenticate?code=${invite.code}`)).status).toBe(401);
    expect(await (await t.call('/auth/invites', { token: t.adminToken })).json()).toEqual([]);
  });

  it('revokes an exchanged code whose device has not made its account: the Server token makes none', async () => {
    const invite = await createInvite(t);
    const { token } = (await (await t.call(`/auth/code-authenticate?code=${invite.code}`)).json()) as {
      token: string;
    };
    expect((await postForm(t, '/auth/invites/revoke', { code: invite.code }, t.adminToken)).status).toBe(200);
    const create = await createAccount(token, { username: 'late-tv', password: 'late-tv-pw' });
    expect(create.status).toBe(401);
  });

  it('answers 404 invite_not_found for unknown, revoked or joined codes, 400 without a code, 401 for non-Admins', async () => {
    const invite = await createInvite(t);
    await postJson(t, '/auth/invites/revoke', { code: invite.code }, t.adminToken);
    for (const code of [invite.code, 'ZZZZ', 'not-a-code']) {
      const response = await postJson(t, '/auth/invites/revoke', { code }, t.adminToken);
      expect(await problem(response)).toMatchObject({ status: 404, code: 'invite_not_found' });
    }
    const missing = await postJson(t, '/auth/invites/revoke', {}, t.adminToken);
    expect(await problem(missing)).toMatchObject({ status: 400, parameter: 'code' });
    const other = await createInvite(t);
    const user = await makeUser(t);
    const denied = await postJson(t, '/auth/invites/revoke', { code: other.code }, user.token);
    expect(await problem(denied)).toMatchObject({ status: 401, code: 'forbidden_role' });
    expect((await t.call(`/auth/code-authenticate?code=${other.code}`)).status).toBe(200);
  });
});

describe('GET /auth/code-authenticate', () => {
  it('exchanges a code (any case) once for a Server token of exactly 10 minutes', async () => {
    const { code } = await createInvite(t);
    const response = await t.call(`/auth/code-authenticate?code=${code.toLowerCase()}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { token: string; role: string; userId: null; expiresAt: string };
    expect(body).toMatchObject({ role: 'Server', userId: null, tokenType: 'Bearer' });
    const claims = jwt.decode(body.token) as { exp: number; iat: number; invite: string; role: string };
    expect(claims.exp - claims.iat).toBe(600);
    expect(typeof claims.invite).toBe('string');

    const again = await t.call(`/auth/code-authenticate?code=${code}`);
    expect(again.status).toBe(401);
    expect((await problem(again)).code).toBe('invalid_invite');
  });

  it('refuses an expired code (10 min + 1 s) and an unknown code with 401', async () => {
    const { code } = await createInvite(t);
    t.clock.advance(10 * 60_000 + 1000);
    expect((await t.call(`/auth/code-authenticate?code=${code}`)).status).toBe(401);
    const unknown = await t.call('/auth/code-authenticate?code=ZZZZ');
    expect(unknown.status).toBe(401);
    expect((await problem(unknown)).code).toBe('invalid_invite');
    expect((await t.call('/auth/code-authenticate?code=0O1I')).status).toBe(401);
  });

  it('is still valid 1 s before it expires', async () => {
    const { code } = await createInvite(t);
    t.clock.advance(10 * 60_000 - 1000);
    expect((await t.call(`/auth/code-authenticate?code=${code}`)).status).toBe(200);
  });

  it('gives exactly one of many simultaneous exchanges of one code a token', async () => {
    const { code } = await createInvite(t);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => t.call(`/auth/code-authenticate?code=${code}`)),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
  });

  it('needs the code parameter', async () => {
    const response = await t.call('/auth/code-authenticate');
    expect(response.status).toBe(400);
    expect(await problem(response)).toMatchObject({ code: 'invalid_parameter', parameter: 'code' });
  });

  it('answers 429 after 10 wrong codes from one address in a minute', async () => {
    const { code } = await createInvite(t);
    for (let i = 0; i < 10; i++) expect((await t.call('/auth/code-authenticate?code=ZZZZ')).status).toBe(401);
    const blocked = await t.call(`/auth/code-authenticate?code=${code}`);
    expect(blocked.status).toBe(429);
    expect((await problem(blocked)).code).toBe('too_many_attempts');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    t.clock.advance(60_000);
    expect((await t.call(`/auth/code-authenticate?code=${code}`)).status).toBe(200);
  });

  it('counts wrong codes sent all at once against the per-address limit', async () => {
    await createInvite(t);
    const guesses = Array.from({ length: 40 }, () => t.call('/auth/code-authenticate?code=ZZZZ'));
    const statuses = (await Promise.all(guesses)).map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
  });

  it('does not rewrite the users file for a wrong code', async () => {
    await createInvite(t);
    const file = join(t.dataDir, 'users.json');
    const before = await stat(file);
    for (const guess of ['ZZZZ', 'zzzz', 'A', '0O1I'])
      expect((await t.call(`/auth/code-authenticate?code=${guess}`)).status).toBe(401);
    const after = await stat(file);
    // The store replaces the file (a new inode) on every write.
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });
});

describe('guessing from many addresses', () => {
  let own: TestServer;
  beforeEach(async () => {
    own = await startTestServer();
  });
  afterEach(() => own.stop());

  it('revokes every active code after 50 failures in 10 minutes and logs a warning', async () => {
    const { code } = await createInvite(own);
    // Stay under the per-address limit by letting each minute pass: 50 failures over ~5 minutes.
    for (let i = 0; i < 50; i++) {
      if (i % 10 === 0 && i > 0) own.clock.advance(60_000);
      expect((await own.call('/auth/code-authenticate?code=YYYY')).status).toBe(401);
    }
    expect(
      own.logs.some((line) => line.includes('WARN') && line.includes('invite code guessing detected')),
    ).toBe(true);
    own.clock.advance(60_000);
    expect((await own.call(`/auth/code-authenticate?code=${code}`)).status).toBe(401);
    // New codes work again.
    const fresh = await createInvite(own);
    expect((await own.call(`/auth/code-authenticate?code=${fresh.code}`)).status).toBe(200);
  });
});

describe('the Server token', () => {
  it('is refused everywhere but user creation, where it works once and only makes a User', async () => {
    const token = await serverToken(t);
    for (const path of ['/auth/check', '/auth/invite', '/api/users']) {
      const response = await t.call(path, { token });
      expect(response.status, path).toBe(401);
      expect((await problem(response)).code).toBe('forbidden_role');
    }
    expect(await accountAskingForAdmin(token, 'speaker')).toMatchObject({
      username: 'speaker',
      role: 'User',
    });

    const second = await createAccount(token, { username: 'speaker-2', password: 'kitchen-speaker' });
    await expectProblem(second, '401 invalid_token');
  });

  it('makes a Pass account when the Admin invited a wall display, even if the device asks for more', async () => {
    const made = await t.call('/auth/invite?role=Pass', { token: t.adminToken });
    const invite = (await made.json()) as { code: string; role: string };
    expect(invite.role).toBe('Pass');
    const listed = (await (await t.call('/auth/invites', { token: t.adminToken })).json()) as {
      role: string;
    }[];
    expect(listed.map((row) => row.role)).toEqual(['Pass']);
    const exchanged = await t.call(`/auth/code-authenticate?code=${invite.code}`);
    const { token } = (await exchanged.json()) as { token: string };
    expect(await accountAskingForAdmin(token, 'hall-display')).toMatchObject({
      username: 'hall-display',
      role: 'Pass',
    });
  });

  it('cannot come from an invite that asks for an Admin: 400, and no code is made', async () => {
    const refused = await t.call('/auth/invite?role=Admin', { token: t.adminToken });
    expect(refused.status).toBe(400);
    expect((await problem(refused)).code).toBe('invalid_parameter');
    const listed = (await (await t.call('/auth/invites', { token: t.adminToken })).json()) as unknown[];
    expect(listed).toEqual([]);
  });

  it('expires after 10 minutes', async () => {
    const token = await serverToken(t);
    t.clock.advance(10 * 60_000 + 1000);
    const response = await createAccount(token, { username: 'late-device', password: 'late-device-pw' });
    expect(response.status).toBe(401);
  });

  it('survives a duplicate-name attempt and can still make its one user', async () => {
    const token = await serverToken(t);
    const clash = await createAccount(token, { username: 'ADMIN', password: 'whatever-long' });
    expect(clash.status).toBe(409);
    const ok = await createAccount(token, { username: 'tv-room', password: 'whatever-long' });
    expect(ok.status).toBe(201);
  });
});
