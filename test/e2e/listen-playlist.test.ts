import { dirname } from 'node:path';
import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../server/contract/common.js';
import type { Track } from '../../server/contract/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { postJson, startTestServer, type TestServer } from '../support/server.js';
import { eventually, launchBrowser, openSection, signIn, type Browser } from './browser.js';

/**
 * A long playlist opens in Listen with its tracks in one request, not one request per track.
 */
let t: TestServer;
let music: string;
let browser: Browser;
let kim: TestUser;

/** Many entries: the fixture's tracks over and over, as a long party playlist repeats favourites. */
const LENGTH = 150;
const NAME = 'Long Party';

beforeAll(async () => {
  ({ library: music } = await copyFixtureLibrary('melon-e2e-playlist-'));
  [t, browser] = await Promise.all([startTestServer({ config: { libraryDirs: [music] } }), launchBrowser()]);
  kim = await makeUser(t, { username: 'kim' });
  const response = await t.call('/api/tracks?count=100', { token: kim.token });
  const tracks = ((await response.json()) as Page<Track>).items;
  const trackIds = Array.from({ length: LENGTH }, (_, i) => tracks[i % tracks.length]!.id);
  expect((await postJson(t, '/api/playlists/create', { name: NAME, trackIds }, kim.token)).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await Promise.all([browser?.close(), t?.stop()]);
  await rm(dirname(music), { recursive: true, force: true });
});

afterEach(() => {
  expect(browser.pageErrors).toEqual([]);
});

describe('A long playlist in Listen', () => {
  it('opens with all its tracks from one request for them', async () => {
    const { page } = browser;
    await signIn(page, t.url, kim.username, kim.password);
    const view = await openSection(page, 'listen');
    await view.getByTestId('listen-tabs').getByText('Playlists').click();
    const asked: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/')) asked.push(path);
    });
    await view.getByRole('link', { name: NAME }).click();
    const rows = view.getByTestId('listen-playlist').getByTestId('track-row');
    await eventually(() => rows.count(), LENGTH);
    // The playlist, and its tracks in one answer; no request per track.
    expect(asked.filter((path) => path.startsWith('/api/tracks/'))).toEqual([]);
    expect(asked.filter((path) => path.startsWith('/api/playlists/'))).toHaveLength(2);
  }, 90_000);
});
