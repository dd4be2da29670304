import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { makeUser } from '../factories/users.js';
import { problem, startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
let secret: Buffer;
let claims: Record<string, unknown>;

beforeAll(async () => {
  t = await startTestServer();
  secret = Buffer.from((await readFile(join(t.dataDir, 'secret.key'), 'utf8')).trim(), 'hex');
  claims = jwt.decode(t.adminToken) as Record<string, unknown>;
});
afterAll(() => t.stop());

async function expectRefused(token: string) {
  const response = await t.call('/auth/check', { token });
  expect(response.status).toBe(401);
  expect((await problem(response)).code).toBe('invalid_token');
}

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

  it('refuses other algorithms, even with the right secret', async () => {
    await expectRefused(jwt.sign(claims, secret, { algorithm: 'HS384' }));
    await expectRefused(jwt.sign(claims, secret, { algorithm: 'HS512' }));
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
