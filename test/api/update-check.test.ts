import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE_CACHE_MS } from '../../server/services/updates/release-source.js';
import { makeUser } from '../factories/users.js';
import { FakeReleaseServer, OWNER, REPO } from '../support/fake-release-server.js';
import { startTestServer, type TestServer } from '../support/server.js';

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
