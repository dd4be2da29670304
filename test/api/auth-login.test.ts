import { beforeEach, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { makeUser } from '../factories/users.js';
import {
  ADMIN_PASSWORD,
  ADMIN_USER,
  postForm,
  postJson,
  problem,
  startTestServer,
  useTestServer,
} from '../support/server.js';

const t = useTestServer();
// Each test starts outside the previous one's failed-login window (all requests come from 127.0.0.1).
beforeEach(() => t.clock.advance(16 * 60_000));

describe('GET/POST /auth/login', () => {
  it('returns a 7-day HS256 token with the contract claims, by GET and by POST', async () => {
    const viaGet = await t.call(
      `/auth/login?username=${ADMIN_USER}&password=${encodeURIComponent(ADMIN_PASSWORD)}`,
    );
    expect(viaGet.status).toBe(200);
    expect(viaGet.headers.get('content-type')).toMatch(/^application\/json; charset=utf-8/);
    const body = (await viaGet.json()) as Record<string, string>;
    expect(body).toMatchObject({ tokenType: 'Bearer', role: 'Admin' });
    const decoded = jwt.decode(body.token!, { complete: true })!;
    const claims = decoded.payload as Record<string, unknown>;
    expect(decoded.header.alg).toBe('HS256');
    expect(claims).toMatchObject({ sub: body.userId, role: 'Admin', name: ADMIN_USER });
    expect(typeof claims.jti).toBe('string');
    expect((claims.exp as number) - (claims.iat as number)).toBe(7 * 86400);
    expect(body.expiresAt).toBe(new Date((claims.exp as number) * 1000).toISOString());

    const viaForm = await postForm(t, '/auth/login', { username: ADMIN_USER, password: ADMIN_PASSWORD });
    expect(viaForm.status).toBe(200);
    const viaJson = await postJson(t, '/auth/login', {
      username: ADMIN_USER.toUpperCase(),
      password: ADMIN_PASSWORD,
    });
    expect(viaJson.status).toBe(200);
  });

  it('answers a wrong password and an unknown user with the same 401 problem', async () => {
    const wrong = await postJson(t, '/auth/login', { username: ADMIN_USER, password: 'not the password' });
    const unknown = await postJson(t, '/auth/login', {
      username: 'nobody-here',
      password: 'not the password',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    const [a, b] = [await problem(wrong), await problem(unknown)];
    expect(a.code).toBe('invalid_credentials');
    expect(b).toEqual(a);
  });

  it('takes about as long for an unknown user as for a wrong password', async () => {
    const time = async (username: string) => {
      const started = performance.now();
      await postJson(t, '/auth/login', { username, password: 'nope-nope' });
      return performance.now() - started;
    };
    await time('warm-up-user');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(ADMIN_USER));
      unknown.push(await time(`ghost-${i}`));
    }
    const median = (values: number[]) => values.sort((x, y) => x - y)[1]!;
    // Both pay one scrypt; a skipped hash would make the unknown case several times faster.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });

  it('refuses missing parameters with a 400 naming them', async () => {
    const response = await t.call('/auth/login?username=admin');
    expect(response.status).toBe(400);
    expect(await problem(response)).toMatchObject({ code: 'invalid_parameter', parameter: 'password' });
    const empty = await t.call('/auth/login?username=&password=x');
    expect(await problem(empty)).toMatchObject({ code: 'invalid_parameter', parameter: 'username' });
  });

  it('never writes a password into the server log', async () => {
    const secret = 'Sup3r-Secret-Pa55word';
    await t.call(`/auth/login?username=${ADMIN_USER}&password=${secret}`);
    await postForm(t, '/auth/login', { username: ADMIN_USER, password: secret });
    await t.call(`/auth/login?username=${ADMIN_USER}&password=${encodeURIComponent(ADMIN_PASSWORD)}`);
    const log = t.logs.join('\n');
    expect(log).toContain('/auth/login?username=admin&password=***');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(encodeURIComponent(ADMIN_PASSWORD));
    expect(log).not.toContain(ADMIN_PASSWORD);
  });

  it('records the last login time', async () => {
    const user = await makeUser(t);
    const list = await t.call('/api/users', { token: t.adminToken });
    const row = ((await list.json()) as Array<{ id: string; lastLogin: string | null }>).find(
      (u) => u.id === user.id,
    );
    expect(row?.lastLogin).toBe(new Date(t.clock.now()).toISOString());
  });
});

describe('failed-login limits', () => {
  it('locks a username at an address after 10 failures in 15 minutes, for 1 minute first, with Retry-After', async () => {
    // A device's lock grows with its failures (1, 2, 4, 8, 15 minutes), so that a lockout cannot be
    // used to keep someone out for long; test/security/lockout.test.ts walks the whole sequence.
    const user = await makeUser(t, { username: 'victim' });
    for (let i = 0; i < 10; i++) {
      const response = await postJson(t, '/auth/login', { username: 'victim', password: `guess-${i}` });
      expect(response.status).toBe(401);
    }
    const blocked = await postJson(t, '/auth/login', { username: 'Victim', password: user.password });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBe(60);
    expect((await problem(blocked)).code).toBe('too_many_attempts');

    t.clock.advance(60_000);
    const again = await postJson(t, '/auth/login', { username: 'victim', password: user.password });
    expect(again.status).toBe(200);
  });

  it('counts logins in flight, and a right one among them does not count as a failure', async () => {
    const user = await makeUser(t, { username: 'busy' });
    const attempts = [
      ...Array.from({ length: 9 }, (_, i) => ({ username: 'busy', password: `guess-${i}` })),
      { username: 'busy', password: user.password },
    ].map((body) => postJson(t, '/auth/login', body));
    const statuses = (await Promise.all(attempts)).map((response) => response.status);
    expect(statuses.sort()).toEqual([200, ...Array<number>(9).fill(401)]);
    // Nine failures: the tenth still answers 401, and only then is the name locked.
    expect((await postJson(t, '/auth/login', { username: 'busy', password: 'guess-9' })).status).toBe(401);
    expect((await postJson(t, '/auth/login', { username: 'busy', password: user.password })).status).toBe(
      429,
    );
  });

  it('locks a client address that tries many usernames', async () => {
    const own = await startTestServer();
    try {
      for (let i = 0; i < 10; i++) {
        expect(
          (await postJson(own, '/auth/login', { username: `name-${i}`, password: 'xxxxxxxx' })).status,
        ).toBe(401);
      }
      const blocked = await postJson(own, '/auth/login', { username: ADMIN_USER, password: ADMIN_PASSWORD });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await own.stop();
    }
  });
});
