import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiKey, NewApiKey } from '../../server/contract/users.js';
import { makeUser, changePassword } from '../factories/users.js';
import { postJson, problem, startTestServer, useTestServer, type TestServer } from '../support/server.js';

/** API keys for apps over real HTTP (docs/API.md, API keys). */
const t = useTestServer();

async function createKey(token: string, name = 'Phone app', server: TestServer = t): Promise<NewApiKey> {
  const response = await postJson(server, '/api/users/api-keys/create', { name }, token);
  expect(response.status).toBe(201);
  return (await response.json()) as NewApiKey;
}

async function listKeys(token: string): Promise<ApiKey[]> {
  const response = await t.call('/api/users/api-keys', { token });
  expect(response.status).toBe(200);
  return (await response.json()) as ApiKey[];
}

const check = (key: string) => t.call('/auth/check', { token: key });

describe('POST /api/users/api-keys/create', () => {
  it('makes a 256-bit URL-safe key, shown once, stored only as a hash', async () => {
    const user = await makeUser(t, { role: 'Pass' });
    const made = await createKey(user.token, 'Living-room speaker');
    expect(made.name).toBe('Living-room speaker');
    expect(made.key).toMatch(/^melon_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(made.key.slice(6), 'base64url')).toHaveLength(32);
    expect(made.createdAt).toBe(new Date(t.clock.now()).toISOString());
    const other = await createKey(user.token, 'Living-room speaker');
    expect(other.key).not.toBe(made.key);
    expect(other.id).not.toBe(made.id);

    await t.server.store.flush();
    const stored = await readFile(join(t.dataDir, 'users.json'), 'utf8');
    expect(stored).not.toContain(made.key);
    expect(stored).not.toContain(made.key.slice(6));
    expect(stored).toContain(made.id);
    const listed = await listKeys(user.token);
    expect(JSON.stringify(listed)).not.toContain(made.key.slice(6));
    expect(listed.find((key) => key.id === made.id)).toEqual({
      id: made.id,
      name: made.name,
      createdAt: made.createdAt,
      lastUsedAt: null,
      lastUsedBy: null,
      tokenSignIn: true,
    });
  });

  it('takes names of 1–64 characters', async () => {
    const user = await makeUser(t);
    await createKey(user.token, 'x'.repeat(64));
    await createKey(user.token, 'Ünïcödé 📱');
    for (const name of ['', 'x'.repeat(65), 'tab\there']) {
      const response = await postJson(t, '/api/users/api-keys/create', { name }, user.token);
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect((await problem(response)).code).toBe('invalid_parameter');
    }
    const missing = await postJson(t, '/api/users/api-keys/create', {}, user.token);
    expect((await problem(missing)).parameter).toBe('name');
  });

  it('allows 20 keys per account, then 409 too_many_api_keys; other accounts are not affected', async () => {
    const user = await makeUser(t);
    const made = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        postJson(t, '/api/users/api-keys/create', { name: `key ${i}` }, user.token),
      ),
    );
    expect(made.filter((response) => response.status === 201)).toHaveLength(20);
    const refused = made.filter((response) => response.status === 409);
    expect(refused).toHaveLength(5);
    expect((await problem(refused[0]!)).code).toBe('too_many_api_keys');
    expect(await listKeys(user.token)).toHaveLength(20);
    const other = await makeUser(t);
    await createKey(other.token);
  });
});

describe('using a key', () => {
  it('acts as its user with the user’s role, on the native API', async () => {
    for (const role of ['Admin', 'User', 'Pass'] as const) {
      const user = await makeUser(t, { role });
      const { key } = await createKey(user.token);
      const checked = await check(key);
      expect(checked.status).toBe(200);
      expect(await checked.json()).toMatchObject({ userId: user.id, username: user.username, role });
      const users = await t.call('/api/users', { token: key });
      expect(users.status, role).toBe(role === 'Admin' ? 200 : 401);
      if (role !== 'Admin') expect((await problem(users)).code).toBe('forbidden_role');
      expect((await t.call('/api/tracks', { token: key })).status).toBe(200);
    }
  });

  it('refuses keys it did not make, with 401 invalid_token', async () => {
    const user = await makeUser(t);
    const { key } = await createKey(user.token);
    const flipped = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const bad of [flipped, `${key}x`, key.slice(0, -1), 'melon_', `melon_${'A'.repeat(43)}`]) {
      const response = await check(bad);
      expect(response.status, bad).toBe(401);
      expect((await problem(response)).code).toBe('invalid_token');
    }
    // Keys are taken from the Authorization header only.
    expect((await problem(await t.call(`/auth/check?apiKey=${key}`))).code).toBe('missing_token');
  });

  it('stops working at once when deleted; only its owner can delete it', async () => {
    const user = await makeUser(t);
    const other = await makeUser(t);
    const kept = await createKey(user.token, 'kept');
    const doomed = await createKey(user.token, 'doomed');
    expect((await check(doomed.key)).status).toBe(200);

    const foreign = await postJson(t, '/api/users/api-keys/delete', { id: doomed.id }, other.token);
    expect(foreign.status).toBe(404);
    expect((await problem(foreign)).code).toBe('api_key_not_found');
    const byAdmin = await postJson(t, '/api/users/api-keys/delete', { id: doomed.id }, t.adminToken);
    expect(byAdmin.status).toBe(404);
    expect((await check(doomed.key)).status).toBe(200);

    // A key can delete itself (it acts as its user).
    const deleted = await postJson(t, '/api/users/api-keys/delete', { id: doomed.id }, doomed.key);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: true, id: doomed.id });
    expect((await problem(await check(doomed.key))).code).toBe('invalid_token');
    const again = await postJson(t, '/api/users/api-keys/delete', { id: doomed.id }, user.token);
    expect((await problem(again)).code).toBe('api_key_not_found');
    expect((await check(kept.key)).status).toBe(200);
    expect((await listKeys(user.token)).map((key) => key.name)).toEqual(['kept']);
  });

  it('stops working at once when its user is deleted, and the user’s keys go with it', async () => {
    const user = await makeUser(t);
    const { key, id } = await createKey(user.token);
    expect((await check(key)).status).toBe(200);
    const removed = await postJson(t, '/api/users/delete', { id: user.id }, t.adminToken);
    expect(removed.status).toBe(200);
    expect((await problem(await check(key))).code).toBe('invalid_token');
    await t.server.store.flush();
    expect(await readFile(join(t.dataDir, 'users.json'), 'utf8')).not.toContain(id);
  });

  it('keeps working after a password change (keys are not sessions)', async () => {
    const user = await makeUser(t);
    const { key } = await createKey(user.token);
    const changed = await changePassword(t, user.token, {
      currentPassword: user.password,
      newPassword: 'a brand new password',
    });
    expect(changed.status).toBe(200);
    expect((await check(user.token)).status).toBe(401);
    expect((await check(key)).status).toBe(200);
  });

  it('records lastUsedAt at most once a minute', async () => {
    const user = await makeUser(t);
    const { key, id } = await createKey(user.token);
    const lastUsed = async () => (await listKeys(user.token)).find((k) => k.id === id)!.lastUsedAt;
    const first = t.clock.now();
    await check(key);
    await t.server.store.flush();
    expect(await lastUsed()).toBe(new Date(first).toISOString());

    const users = join(t.dataDir, 'users.json');
    await t.server.store.flush();
    const before = await readFile(users, 'utf8');
    t.clock.advance(30_000);
    for (let i = 0; i < 5; i += 1) await check(key);
    await t.server.store.flush();
    expect(await readFile(users, 'utf8')).toBe(before);
    expect(await lastUsed()).toBe(new Date(first).toISOString());

    t.clock.advance(31_000);
    await check(key);
    await t.server.store.flush();
    expect(await lastUsed()).toBe(new Date(t.clock.now()).toISOString());
  });

  it('survives a restart; the key value is never logged', async () => {
    const server = await startTestServer();
    try {
      const { key } = await createKey(server.adminToken, 'restart', server);
      const again = await server.restart();
      try {
        const checked = await again.call('/auth/check', { token: key });
        expect(checked.status).toBe(200);
        expect([...server.logs, ...again.logs].join('\n')).not.toContain(key.slice(6));
      } finally {
        await again.stop();
      }
    } catch (error) {
      await server.stop().catch(() => undefined);
      throw error;
    }
  });
});

describe('GET /api/users/api-keys', () => {
  it("lists only the caller's keys, oldest first", async () => {
    const user = await makeUser(t);
    const other = await makeUser(t);
    await createKey(other.token, 'theirs');
    await createKey(user.token, 'first');
    t.clock.advance(1000);
    await createKey(user.token, 'second');
    expect((await listKeys(user.token)).map((key) => key.name)).toEqual(['first', 'second']);
  });
});

describe('the users file', () => {
  it('migrates a version-1 users.json (no keys) on start', async () => {
    const server = await startTestServer();
    const dataDir = server.dataDir;
    await server.stop(true);
    const path = join(dataDir, 'users.json');
    const old = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    delete old.apiKeys;
    await writeFile(path, JSON.stringify({ ...old, schemaVersion: 1 }));
    const again = await startTestServer({ dataDir });
    try {
      const migrated = JSON.parse(await readFile(path, 'utf8')) as {
        schemaVersion: number;
        apiKeys: unknown;
      };
      expect(migrated).toMatchObject({ schemaVersion: 2, apiKeys: [] });
      await createKey(again.adminToken, 'after migration', again);
    } finally {
      await again.stop();
    }
  });
});
