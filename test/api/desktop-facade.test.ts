import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../server/clock.js';
import { FakeReleaseServer } from '../support/fake-release-server.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * createServer(...).desktop: what the tray asks of the embedded server, without HTTP or a token.
 * A real server over a temp data folder, its release feed a local fake.
 */
let releases: FakeReleaseServer;
let t: TestServer | null = null;

beforeAll(async () => {
  releases = await FakeReleaseServer.start();
});
afterAll(async () => {
  await releases.close();
});
afterEach(async () => {
  await t?.stop();
  t = null;
  releases.reset();
});

const start = async () => {
  t = await startTestServer({ env: { MELON_RELEASES_URL: releases.url } });
  return t;
};

describe('the desktop facade of createServer', () => {
  it('gives the addresses the server listens on', async () => {
    const { server, url } = await start();
    expect(server.desktop.addresses()).toEqual([url]);
  });

  it('creates an invite code as the desktop owner, valid ten minutes and listed for Admins', async () => {
    const { server, clock, call, adminToken } = await start();
    const invite = await server.desktop.createInvite();
    expect(invite.code).toMatch(/^[A-Z2-9]{4}$/);
    expect(Date.parse(invite.expiresAt)).toBe(clock.now() + 10 * MINUTE_MS);
    const listed = (await (await call('/auth/invites', { token: adminToken })).json()) as unknown;
    expect(JSON.stringify(listed)).toContain(invite.code);
  });

  it('refuses a sixth active invite code, as the HTTP route does', async () => {
    const { server } = await start();
    for (let i = 0; i < 5; i++) await server.desktop.createInvite();
    await expect(server.desktop.createInvite()).rejects.toMatchObject({ code: 'too_many_invites' });
  });

  it('checks the release feed for a newer version', async () => {
    releases.releases = [{ tag: 'v99.0.0', body: '## New' }];
    const { server } = await start();
    expect(await server.desktop.checkForUpdates()).toEqual({
      UpdateAvailable: true,
      CurrentVersion: server.config.version,
      LatestVersion: '99.0.0',
      ReleaseNotes: '## New',
    });
  });

  it('reports the running version as the newest when nothing is published', async () => {
    const { server } = await start();
    const current = server.config.version;
    expect(await server.desktop.checkForUpdates()).toEqual({
      UpdateAvailable: false,
      CurrentVersion: current,
      LatestVersion: current,
    });
  });
});
