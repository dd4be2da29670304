import { cp, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { ADMIN_PASSWORD, ADMIN_USER, startTestServer, type TestServer } from '../support/server.js';
import {
  eventually,
  expectDetailShown,
  launchBrowser,
  openSection,
  screenshot,
  signIn,
  signOut,
  texts,
  type Browser,
} from './browser.js';

/**
 * The settings page in Chromium against the real server over generated audio files: deleting a
 * picture inside a track, uploading artist art, and the statistics charts for an admin and a user.
 */
interface Track {
  id: string;
  name: string;
  artwork: Array<{ pos: number; type: string; width: number; height: number }>;
}

let t: TestServer;
let music: string;
let images: string;
let browser: Browser;
let member: TestUser;
let tracks: Track[];

beforeAll(async () => {
  // A copy: deleting a picture rewrites the audio file.
  ({ library: music, images } = await copyFixtureLibrary('melon-e2e-music-'));
  // An untagged file takes its artist from the folder above its album folder: "Night Owls".
  await mkdir(join(music, 'Night Owls', 'Late Album'), { recursive: true });
  await cp(
    join(music, 'untagged', 'Lonely Folder', 'Lonely Song.mp3'),
    join(music, 'Night Owls', 'Late Album', 'Night Song.mp3'),
  );
  [t, browser] = await Promise.all([startTestServer({ config: { libraryDirs: [music] } }), launchBrowser()]);
  member = await makeUser(t, { username: 'robin' });
  const response = await t.call('/api/tracks?count=100', { token: t.adminToken });
  tracks = ((await response.json()) as { items: Track[] }).items;
});

afterAll(async () => {
  await Promise.all([browser?.close(), t?.stop()]);
  await rm(dirname(music), { recursive: true, force: true });
});

afterEach(() => {
  expect(browser.pageErrors).toEqual([]);
});

const track = (name: string) => {
  const found = tracks.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no track ${name}`);
  return found;
};

async function logPlays(token: string, name: string, times: number, device?: string): Promise<void> {
  for (let i = 0; i < times; i++) {
    const query = new URLSearchParams({ id: track(name).id, ...(device ? { device } : {}) });
    const response = await t.call(`/api/stats/log-play?${query.toString()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      token,
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
}

describe('Artwork', () => {
  beforeAll(() => signIn(browser.page, t.url, ADMIN_USER, ADMIN_PASSWORD));

  it('shows the pictures inside a track and deletes one after confirming; its thumbnail disappears', async () => {
    const { page } = browser;
    const view = await openSection(page, 'artwork');
    await view.getByTestId('art-search').fill('Tone MP3');
    const item = view.getByTestId('art-item').filter({ hasText: 'Tone MP3' });
    await eventually(() => view.getByTestId('art-item').count(), 1);
    await item.click();
    const thumbs = view.getByTestId('art-group-track-thumbs').getByTestId('art-thumb');
    await eventually(
      () => texts(thumbs.getByTestId('art-thumb-caption')),
      ['#0 · front cover · 64×64', '#1 · back cover · 48×32'],
    );
    // The images themselves load (through the API, with the token) and have the pictures' sizes.
    await eventually(
      () =>
        thumbs
          .locator('img')
          .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth)),
      [64, 48],
    );
    await screenshot(page, 'artwork-track');

    // Cancelling keeps the picture.
    await thumbs.first().getByTestId('art-delete').click();
    await page.getByTestId('confirm-cancel').click();
    expect(await thumbs.count()).toBe(2);

    await thumbs.first().getByTestId('art-delete').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await screenshot(page, 'artwork-confirm-delete');
    await page.getByTestId('confirm-ok').click();
    // The front cover's thumbnail is gone; the back cover moved up to position 0.
    await eventually(() => texts(thumbs.getByTestId('art-thumb-caption')), ['#0 · back cover · 48×32']);
    await page.getByTestId('info-message').filter({ hasText: 'Picture deleted.' }).waitFor();

    const response = await t.call(`/api/tracks/${track('Tone MP3').id}`, { token: t.adminToken });
    const after = (await response.json()) as Track;
    expect(after.artwork.map((art) => [art.type, art.width])).toEqual([['back cover', 48]]);
  });

  it("uploads an artist's picture, and shows the server's reason when an upload is refused", async () => {
    const { page } = browser;
    const view = await openSection(page, 'artwork');
    await view.getByTestId('art-kind-artists').click();
    await view.getByTestId('art-item').filter({ hasText: 'Night Owls' }).click();
    const pfp = view.getByTestId('art-group-pfp');
    await pfp.getByText('No pictures.').waitFor();

    await pfp.getByTestId('art-upload-file').setInputFiles(join(images, 'not-an-image.png'));
    const refused = await expectDetailShown(page, '/api/art/upload/artist-pfp', () =>
      pfp.getByTestId('art-upload').click(),
    );
    expect(refused.status).toBe(415);

    await pfp.getByTestId('art-upload-file').setInputFiles(join(images, 'cover.png'));
    await pfp.getByTestId('art-upload').click();
    await eventually(() => texts(pfp.getByTestId('art-thumb-caption')), ['#0']);
    await screenshot(page, 'artwork-artist');
  });
});

describe('Statistics', () => {
  beforeAll(async () => {
    // The admin listens to Night Owls most; Robin (a User) only to the untagged song.
    await logPlays(t.adminToken, 'Night Song', 3, 'Kitchen');
    await logPlays(t.adminToken, 'Tone MP3', 2, 'Phone');
    await logPlays(member.token, 'Lonely Song', 2, 'Laptop');
  });

  it('charts the top artists and listening time, with the right top artist', async () => {
    const { page } = browser;
    const view = await openSection(page, 'stats');
    // All time, so the test does not depend on where in the month it runs.
    await view.getByTestId('stats-range-all').click();
    await eventually(() => view.getByTestId('stats-top-artist').textContent(), 'Night Owls');
    expect(await view.getByTestId('stats-plays').textContent()).toBe('5');

    const bars = view.getByTestId('chart-top-artists').getByTestId('chart-bar');
    const chart = await bars.evaluateAll((gs) => gs.map((g) => [g.dataset.label, Number(g.dataset.value)]));
    expect(chart[0]).toEqual(['Night Owls', 3]);
    // A play counts for every artist of its track: Tone MP3 has two, tied behind the top artist.
    expect(chart.slice(1).sort()).toEqual([
      ['Aurora Lane', 2],
      ['The Static', 2],
    ]);
    // The longest bar is the top artist's.
    const widths = await view
      .getByTestId('chart-top-artists')
      .locator('rect.chart-bar')
      .evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('width'))));
    expect(widths[0]).toBeGreaterThan(widths[1]!);
    await view.getByTestId('chart-activity').getByTestId('chart-line').waitFor();
    expect(await texts(view.getByTestId('top-tracks-item').locator('.top-name'))).toEqual([
      'Night Song',
      'Tone MP3',
    ]);
    expect((await texts(view.getByTestId('recent-plays-item'))).length).toBe(5);
    await screenshot(page, 'stats-admin');

    // The device filter narrows everything to the kitchen's plays.
    await view.getByTestId('stats-device').fill('Kitchen');
    await eventually(() => view.getByTestId('stats-plays').textContent(), '3');
    expect(await view.getByTestId('stats-top-artist').textContent()).toBe('Night Owls');
    await view.getByTestId('stats-device').fill('');
    await eventually(() => view.getByTestId('stats-plays').textContent(), '5');

    // An admin may look at anyone's statistics.
    await view.getByTestId('stats-user').selectOption({ label: 'robin' });
    await eventually(() => view.getByTestId('stats-top-artist').textContent(), 'untagged');
    expect(await view.getByTestId('stats-plays').textContent()).toBe('2');
  });

  it("shows the server's detail for a refused range", async () => {
    const { page } = browser;
    const view = await openSection(page, 'stats');
    await view.getByTestId('stats-range-custom').click();
    await view.getByTestId('stats-from').fill('2026-06-30');
    const problem = await expectDetailShown(page, '/api/stats/listening-time', () =>
      view.getByTestId('stats-to').fill('2026-06-01'),
    );
    expect(problem.code).toBe('invalid_parameter');
    expect(await view.getByTestId('stats-error').textContent()).toBe(problem.detail);
  });

  it('shows a User only their own statistics', async () => {
    const { page } = browser;
    await signOut(page);
    const statsRequests: URL[] = [];
    const record = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/stats/')) statsRequests.push(url);
    };
    page.on('request', record);
    try {
      await signIn(page, t.url, member.username, member.password);
      expect(await texts(page.getByTestId('tabs').locator('.tab'))).toEqual([
        'Statistics',
        'History',
        'Updates',
        'Account',
      ]);
      const view = page.getByTestId('view-stats');
      await view.getByTestId('stats-range-all').click();
      await eventually(() => view.getByTestId('stats-top-artist').textContent(), 'untagged');
      expect(await view.getByTestId('stats-plays').textContent()).toBe('2');
      expect(
        await view
          .getByTestId('chart-top-artists')
          .getByTestId('chart-bar')
          .evaluateAll((gs) => gs.map((g) => g.dataset.label)),
      ).toEqual(['untagged']);
      // No way to pick someone else, and every request asked for Robin's own statistics.
      expect(await view.getByTestId('stats-user').count()).toBe(0);
      expect(statsRequests.length).toBeGreaterThan(0);
      for (const url of statsRequests) expect([member.id, null]).toContain(url.searchParams.get('userId'));
      await screenshot(page, 'stats-user');
    } finally {
      page.off('request', record);
      await signOut(page);
    }
  });
});
