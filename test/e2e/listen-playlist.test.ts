import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../server/contract/common.js';
import type { Track } from '../../server/contract/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { useFixtureLibraryCopy } from '../support/fixture-library.js';
import { postJson } from '../support/server.js';
import { eventually, openSection, useServerAndBrowser } from './browser.js';

/**
 * A long playlist opens in Listen with its tracks in one request, not one request per track.
 */
const fixture = useFixtureLibraryCopy('melon-e2e-playlist-');
const { t, browser, signIn } = useServerAndBrowser(() => ({ config: { libraryDirs: [fixture.library] } }));
let kim: TestUser;

/** Many entries: the fixture's tracks over and over, as a long party playlist repeats favourites. */
const LENGTH = 150;
const NAME = 'Long Party';

beforeAll(async () => {
  kim = await makeUser(t, { username: 'kim' });
  const response = await t.call('/api/tracks?count=100', { token: kim.token });
  const tracks = ((await response.json()) as Page<Track>).items;
  const trackIds = Array.from({ length: LENGTH }, (_, i) => tracks[i % tracks.length]!.id);
  expect((await postJson(t, '/api/playlists/create', { name: NAME, trackIds }, kim.token)).status).toBe(201);
}, 60_000);

describe('A long playlist in Listen', () => {
  it('opens with all its tracks from one request for them', async () => {
    const { page } = browser;
    await signIn(kim);
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
