import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE_CACHE_MS } from '../../server/services/updates/release-source.js';
import { makeUser } from '../factories/users.js';
import { FakeReleaseServer, OWNER, REPO } from '../support/fake-release-server.js';
import { postJson, startTestServer, type TestServer } from '../support/server.js';

/** check-for-updates over HTTP: only an Admin's request ever reaches the release source. */
let fake: FakeReleaseServer;
let t: TestServer;

beforeAll(async () => {
  fake = await FakeReleaseServer.start();
  t = await startTestServer({
    env: { MELON_RELEASES_URL: fake.url, MELON_RELEASES_REPO: `${OWNER}/${REPO}` },
  });
});

afterAll(async () => {
  await t?.stop();
  await fake?.close();
});

describe('GET /api/settings/check-for-updates', () => {
  it('a member who cannot install never makes the server ask, however often they look', async () => {
    fake.releases = [{ tag: 'v99.0.0' }];
    const member = await makeUser(t, { role: 'User' });
    for (let i = 0; i < 5; i++) {
      const response = await t.call('/api/settings/check-for-updates?refresh=true', { token: member.token });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ UpdateAvailable: false, CheckedAt: null });
      t.clock.advance(RELEASE_CACHE_MS);
    }
    expect(fake.apiCount()).toBe(0);

    const admin = await t.call('/api/settings/check-for-updates', { token: t.adminToken });
    expect(await admin.json()).toMatchObject({ UpdateAvailable: true, LatestVersion: '99.0.0' });
    expect(fake.apiCount()).toBe(1);
    // Afterwards the member sees what the Admin's check found, still without a request.
    const known = await t.call('/api/settings/check-for-updates', { token: member.token });
    expect(await known.json()).toMatchObject({ UpdateAvailable: true, LatestVersion: '99.0.0' });
    expect(fake.apiCount()).toBe(1);
  });
});

describe('POST /api/settings/update-check (the Admin switch)', () => {
  it('turns the daily check off for good: opening Updates asks nothing, even after a restart', async () => {
    let own = await startTestServer({
      env: { MELON_RELEASES_URL: fake.url, MELON_RELEASES_REPO: `${OWNER}/${REPO}` },
    });
    try {
      const before = fake.apiCount();
      const off = await postJson(own, '/api/settings/update-check', { schedule: 'off' }, own.adminToken);
      expect(off.status).toBe(200);
      expect(await off.json()).toEqual({ Schedule: 'off', ScheduleLocked: false });
      own = await own.restart();
      for (let i = 0; i < 3; i++) {
        const seen = await own.call('/api/settings/check-for-updates', { token: own.adminToken });
        expect(await seen.json()).toMatchObject({ Schedule: 'off', ScheduleLocked: false });
        own.clock.advance(RELEASE_CACHE_MS);
      }
      expect(fake.apiCount()).toBe(before);
      // "Check now" still asks.
      await own.call('/api/settings/check-for-updates?refresh=true', { token: own.adminToken });
      expect(fake.apiCount()).toBe(before + 1);

      // On again: the next visit a day later asks by itself.
      await postJson(own, '/api/settings/update-check', { schedule: 'daily' }, own.adminToken);
      own.clock.advance(RELEASE_CACHE_MS);
      await own.call('/api/settings/check-for-updates', { token: own.adminToken });
      expect(fake.apiCount()).toBe(before + 2);
    } finally {
      await own.stop();
    }
  });

  it('cannot turn on a check that MELON_UPDATE_CHECK=off forbids: 409, and nothing asks', async () => {
    const own = await startTestServer({
      env: {
        MELON_RELEASES_URL: fake.url,
        MELON_RELEASES_REPO: `${OWNER}/${REPO}`,
        MELON_UPDATE_CHECK: 'off',
      },
    });
    try {
      const before = fake.apiCount();
      const on = await postJson(own, '/api/settings/update-check', { schedule: 'daily' }, own.adminToken);
      expect(on.status).toBe(409);
      expect(((await on.json()) as { code: string }).code).toBe('update_check_locked');
      const seen = await own.call('/api/settings/check-for-updates', { token: own.adminToken });
      expect(await seen.json()).toMatchObject({ Schedule: 'off', ScheduleLocked: true });
      expect(fake.apiCount()).toBe(before);
    } finally {
      await own.stop();
    }
  });

  it('is for Admins only, and takes only daily or off', async () => {
    const member = await makeUser(t, { role: 'User' });
    const refused = await postJson(t, '/api/settings/update-check', { schedule: 'off' }, member.token);
    expect(refused.status).toBe(401);
    const wrong = await postJson(t, '/api/settings/update-check', { schedule: 'hourly' }, t.adminToken);
    expect(wrong.status).toBe(400);
  });
});
