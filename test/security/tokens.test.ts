import { generateKeyPairSync } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { changePassword, makeUser } from '../factories/users.js';
import { loginToken, postForm, postJson, problem, useTestServer, expectProblem } from '../support/server.js';
import { expectTokenRefused, signingKey } from '../support/tokens.js';

const t = useTestServer();
let secret: Buffer;
let claims: Record<string, unknown>;

beforeAll(async () => {
  secret = await signingKey(t);
  claims = jwt.decode(t.adminToken) as Record<string, unknown>;
});

const expectRefused = (token: string) => expectTokenRefused(t, token);

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('token checks', () => {
  it('keeps a 256-bit secret readable only by its owner', async () => {
    expect(secret.length).toBe(32);
    expect((await stat(join(t.dataDir, 'secret.key'))).mode & 0o777).toBe(0o600);
  });

  it('accepts a token signed with the secret (control)', async () => {
    const token = jwt.sign(claims, secret, { algorithm: 'HS256' });
    expect((await t.call('/auth/check', { token })).status).toBe(200);
  });

  it('refuses alg none', async () => {
    await expectRefused(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`);
  });

  it('refuses alg none in any spelling, with or without a signature', async () => {
    const good = jwt.sign(claims, secret, { algorithm: 'HS256' });
    const signature = good.split('.')[2]!;
    for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
      await expectRefused(`${b64({ alg, typ: 'JWT' })}.${b64(claims)}.`);
      await expectRefused(`${b64({ alg, typ: 'JWT' })}.${b64(claims)}.${signature}`);
    }
  });

  it('refuses other algorithms, even with the right secret', async () => {
    await expectRefused(jwt.sign(claims, secret, { algorithm: 'HS384' }));
    await expectRefused(jwt.sign(claims, secret, { algorithm: 'HS512' }));
  });

  it("refuses asymmetric algorithms signed with the attacker's own keys", async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await expectRefused(jwt.sign(claims, rsa.privateKey, { algorithm: 'RS256' }));
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await expectRefused(jwt.sign(claims, ec.privateKey, { algorithm: 'ES256' }));
  });

  it('refuses a good signature over a header or payload that was changed afterwards', async () => {
    const [header, , signature] = jwt.sign(claims, secret, { algorithm: 'HS256' }).split('.');
    await expectRefused(`${header}.${b64({ ...claims, role: 'Admin', name: 'someone-else' })}.${signature}`);
    await expectRefused(
      `${b64({ alg: 'HS256', typ: 'JWT', kid: '../../secret.key' })}.${b64(claims)}.${signature}`,
    );
  });

  it('refuses well-signed tokens that lack a claim the server relies on', async () => {
    for (const missing of ['exp', 'tv', 'role', 'jti']) {
      const rest = { ...claims };
      delete rest[missing];
      await expectRefused(jwt.sign(rest, secret, { algorithm: 'HS256' }));
    }
  });

  it('refuses a token signed with another key', async () => {
    await expectRefused(jwt.sign(claims, Buffer.alloc(32, 7), { algorithm: 'HS256' }));
  });

  it('refuses an expired token', async () => {
    const now = Math.floor(t.clock.now() / 1000);
    await expectRefused(
      jwt.sign({ ...claims, iat: now - 100, exp: now - 1 }, secret, { algorithm: 'HS256' }),
    );
  });

  it('refuses a token whose role was raised by hand', async () => {
    const user = await makeUser(t, { role: 'Pass' });
    const forged = jwt.sign({ ...(jwt.decode(user.token) as object), role: 'Admin' }, secret, {
      algorithm: 'HS256',
    });
    await expectRefused(forged);
  });

  it('refuses a token of a stale token version', async () => {
    await expectRefused(jwt.sign({ ...claims, tv: 99 }, secret, { algorithm: 'HS256' }));
  });

  it('reads tokens from the Authorization header only, never from the URL or a cookie', async () => {
    for (const init of [
      { path: `/auth/check?token=${t.adminToken}` },
      { path: `/auth/check?access_token=${t.adminToken}` },
      { path: '/auth/check', headers: { Cookie: `token=${t.adminToken}` } },
    ]) {
      const response = await t.call(init.path, { headers: init.headers });
      expect(response.status, init.path).toBe(401);
      expect((await problem(response)).code).toBe('missing_token');
    }
  });

  it('refuses malformed Authorization headers as missing tokens', async () => {
    for (const header of ['Basic abc', 'Bearer', 'Bearer a b', t.adminToken]) {
      const response = await t.call('/auth/check', { headers: { Authorization: header } });
      expect(response.status, header).toBe(401);
    }
  });

  it('expires login tokens after the configured lifetime', async () => {
    const user = await makeUser(t);
    t.clock.advance(7 * 86400_000 - 1000);
    expect((await t.call('/auth/check', { token: user.token })).status).toBe(200);
    t.clock.advance(2000);
    expect((await t.call('/auth/check', { token: user.token })).status).toBe(401);
  });
});

describe('revocation', () => {
  // A server of its own: the tests above move the clock past the Admin token's lifetime.
  const r = useTestServer();
  let rSecret: Buffer;
  beforeAll(async () => {
    rSecret = await signingKey(r);
  });
  const checkRefused = (token: string) => expectTokenRefused(r, token);

  it('a password change revokes every session of that user, for reads and writes, and no one else', async () => {
    const user = await makeUser(r);
    const otherSession = await loginToken(r.call, user.username, user.password);
    const bystander = await makeUser(r);
    const changed = await changePassword(r, user.token, {
      currentPassword: user.password,
      newPassword: 'a whole new password',
    });
    expect(changed.status).toBe(200);
    for (const token of [user.token, otherSession]) {
      await checkRefused(token);
      const write = await postForm(r, '/api/users/settings', { publicStats: 'true' }, token);
      await expectProblem(write, '401 invalid_token');
    }
    expect((await r.call('/auth/check', { token: bystander.token })).status).toBe(200);
  });

  it("an Admin's reset revokes an Admin's own sessions too", async () => {
    const admin = await makeUser(r, { role: 'Admin' });
    const reset = await changePassword(r, r.adminToken, {
      userId: admin.id,
      newPassword: 'reset by another admin',
    });
    expect(reset.status).toBe(200);
    await checkRefused(admin.token);
    expect((await r.call('/api/users', { token: admin.token })).status).toBe(401);
  });

  it('a deleted account stays revoked when a new account takes its name', async () => {
    const user = await makeUser(r, { role: 'Admin' });
    expect((await postForm(r, '/api/users/delete', { id: user.id }, r.adminToken)).status).toBe(200);
    const again = await postJson(
      r,
      '/api/users/create',
      { username: user.username, password: user.password, role: 'Admin' },
      r.adminToken,
    );
    expect(again.status).toBe(201);
    await checkRefused(user.token);
    // Re-signing the old claims with the right key does not help: the id is gone.
    await checkRefused(jwt.sign(jwt.decode(user.token) as object, rSecret, { algorithm: 'HS256' }));
  });
});
