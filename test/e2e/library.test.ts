import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Track } from '../../server/contract/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { useFixtureLibraryCopy } from '../support/fixture-library.js';
import {
  eventually,
  expectDetailShown,
  openSection,
  screenshot,
  signOut,
  texts,
  useServerAndBrowser,
} from './browser.js';

/**
 * The settings page in Chromium against the real server over generated audio files: deleting a
 * picture inside a track, uploading artist art, and the statistics charts for an admin and a user.
 */
// A copy: deleting a picture rewrites the audio file.
const fixture = useFixtureLibraryCopy('melon-e2e-music-');
const { t, browser, signIn } = useServerAndBrowser(async () => {
  const music = fixture.library;
  // An untagged file takes its artist from the folder above its album folder: "Night Owls".
  await mkdir(join(music, 'Night Owls', 'Late Album'), { recursive: true });
  await cp(
    join(music, 'untagged', 'Lonely Folder', 'Lonely Song.mp3'),
    join(music, 'Night Owls', 'Late Album', 'Night Song.mp3'),
  );
  return { config: { libraryDirs: [music] } };
});
let member: TestUser;
let tracks: Track[];

beforeAll(async () => {
  member = await makeUser(t, { username: 'robin' });
  const response = await t.call('/api/tracks?count=100', { token: t.adminToken });
  tracks = ((await response.json()) as { items: Track[] }).items;
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
  beforeAll(() => signIn());

  const album = () =>
    browser.page.getByTestId('art-album').and(browser.page.locator('[data-name="Fixture Album"]'));
  const trackThumbs = (name: string) =>
    browser.page.locator(`[data-testid="art-track"][data-name="${name}"]`).getByTestId('art-thumb');

  it('shows albums with their covers; an album opens its tracks, a picture enlarges and one is deleted', async () => {
    const { page } = browser;
    await openSection(page, 'artwork');
    await album().waitFor();
    await eventually(
      () =>
        album()
          .locator('img')
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      64,
    );
    await screenshot(page, 'artwork-albums');
    await album().click();
    await eventually(
      () => texts(trackThumbs('Tone MP3').getByTestId('art-thumb-caption')),
      ['Picture 1 · front cover · 64×64', 'Picture 2 · back cover · 48×32'],
    );
    // The images themselves load (through the API, with the token) and have the pictures' sizes.
    await eventually(
      () =>
        trackThumbs('Tone MP3')
          .locator('img')
          .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth)),
      [64, 48],
    );
    // Enlarged, then closed: focus returns to the thumbnail.
    await trackThumbs('Tone MP3').first().getByTestId('art-enlarge').click();
    await eventually(
      () =>
        page
          .getByTestId('art-enlarged')
          .locator('img')
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      64,
    );
    await screenshot(page, 'artwork-enlarged');
    await page.getByTestId('art-enlarged-close').click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'art-enlarge',
    );
    await screenshot(page, 'artwork-album');

    // Cancelling keeps the picture.
    await trackThumbs('Tone MP3').first().getByTestId('art-delete').click();
    await page.getByTestId('confirm-cancel').click();
    expect(await trackThumbs('Tone MP3').count()).toBe(2);

    await trackThumbs('Tone MP3').first().getByTestId('art-delete').click();
    await page.getByTestId('confirm-ok').click();
    // The front cover's thumbnail is gone; the back cover moved up to position 0.
    await eventually(
      () => texts(trackThumbs('Tone MP3').getByTestId('art-thumb-caption')),
      ['Picture 1 · back cover · 48×32'],
    );
    await page.getByTestId('info-message').filter({ hasText: 'Picture deleted.' }).waitFor();
    const response = await t.call(`/api/tracks/${track('Tone MP3').id}`, { token: t.adminToken });
    const after = (await response.json()) as Track;
    expect(after.artwork.map((art) => [art.type, art.width])).toEqual([['back cover', 48]]);
  });

  it('deletes a picture from every track of the album in one action, reporting per file, and the counts follow', async () => {
    const { page } = browser;
    // The second picture of every track (Tone MP3's moved up to #0 in the test before). M4A has no
    // picture kinds, so its back cover reads "other": positions, not kinds, are matched.
    const withBack = tracks.filter((candidate) => candidate.artwork.some((art) => art.pos === 1));
    const others = withBack.filter((candidate) => candidate.name !== 'Tone MP3');
    expect(others.length).toBeGreaterThan(1);
    const button = page
      .getByTestId('art-album-delete')
      .filter({ hasText: `Delete the back cover (picture 2) from ${others.length} tracks` });
    await button.click();
    await page.getByTestId('confirm-ok').click();
    await eventually(() => page.getByTestId('art-report-ok').count(), others.length);
    expect(await page.getByTestId('art-report-failed').count()).toBe(0);
    expect((await texts(page.getByTestId('art-report-ok'))).sort()).toEqual(
      others.map((other) => `✓ ${other.name}`).sort(),
    );
    await screenshot(page, 'artwork-album-deleted');
    for (const other of others) {
      const response = await t.call(`/api/tracks/${other.id}`, { token: t.adminToken });
      expect(((await response.json()) as Track).artwork.map((art) => art.type)).toEqual(['front cover']);
    }
    // Back in the grid, the album's count is the files' count now.
    const pictures = (
      await Promise.all(
        tracks
          .filter((candidate) => withBack.includes(candidate) || candidate.artwork.length > 0)
          .map(
            async (candidate) =>
              ((await (await t.call(`/api/tracks/${candidate.id}`, { token: t.adminToken })).json()) as Track)
                .artwork.length,
          ),
      )
    ).reduce((a, b) => a + b, 0);
    await page.getByTestId('art-back').click();
    await eventually(
      async () =>
        (await album().getByTestId('art-album-counts').textContent())!.endsWith(`${pictures} pictures`),
      true,
    );
  });

  it("uploads an artist's picture (a refused upload says why), and offers Delete only for a custom default", async () => {
    const { page } = browser;
    const view = await openSection(page, 'artwork');
    await view.getByTestId('art-kind-artists').click();
    await view.getByTestId('art-item').filter({ hasText: 'Night Owls' }).click();
    const pfp = view.getByTestId('art-group-pfp');
    await pfp.getByText('No pictures.').waitFor();

    const refused = await expectDetailShown(page, '/api/art/upload/artist-pfp', () =>
      pfp.getByTestId('art-upload-file').setInputFiles(join(fixture.images, 'not-an-image.png')),
    );
    expect(refused.status).toBe(415);
    await pfp.getByTestId('art-upload-file').setInputFiles(join(fixture.images, 'cover.png'));
    await eventually(
      () => texts(view.getByTestId('art-group-pfp').getByTestId('art-thumb-caption')),
      ['Picture 1'],
    );
    await screenshot(page, 'artwork-artist');

    await view.getByTestId('art-kind-default').click();
    await eventually(() => view.getByTestId('art-title').textContent(), 'The built-in default artwork');
    expect(await view.getByTestId('art-delete').count()).toBe(0);
    await view.getByTestId('art-upload-file').setInputFiles(join(fixture.images, 'cover.png'));
    await eventually(() => view.getByTestId('art-title').textContent(), 'Your default artwork');
    await view.getByTestId('art-delete').click();
    await page.getByTestId('confirm-ok').click();
    await eventually(() => view.getByTestId('art-title').textContent(), 'The built-in default artwork');
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
    // The month's figures may already say the same: wait for the all-time load itself to finish.
    await view.locator('[data-testid="stats-content"]:not([aria-busy])').waitFor();
    await eventually(() => view.getByTestId('stats-top-artist').textContent(), 'Night Owls');
    expect(await view.getByTestId('stats-plays').textContent()).toBe('5');

    const rows = view.getByTestId('top-artists-item');
    const chart = await rows.evaluateAll((rows) =>
      rows.map((row) => [(row as HTMLElement).dataset.label, Number((row as HTMLElement).dataset.value)]),
    );
    expect(chart[0]).toEqual(['Night Owls', 3]);
    // A play counts for every artist of its track: Tone MP3 has two, tied behind the top artist.
    expect(chart.slice(1).sort()).toEqual([
      ['Aurora Lane', 2],
      ['The Static', 2],
    ]);
    // Each artist has a picture beside the name and its plays in the figures' column.
    expect(await rows.locator('.cover-frame').count()).toBe(3);
    expect(await rows.first().locator('.cover-figure').textContent()).toMatch(/^3 plays/);
    expect(await view.getByTestId('chart-activity').getAttribute('data-total')).toBe('5');
    expect(await texts(view.getByTestId('top-tracks-item').locator('.ranked-name'))).toEqual([
      'Night Song',
      'Tone MP3',
    ]);
    expect((await texts(view.getByTestId('recent-plays-item'))).length).toBe(5);
    await screenshot(page, 'stats-admin');

    // The device filter narrows everything to the kitchen's plays.
    await view.getByTestId('stats-device').selectOption('Kitchen');
    await eventually(() => view.getByTestId('stats-plays').textContent(), '3');
    expect(await view.getByTestId('stats-top-artist').textContent()).toBe('Night Owls');
    await view.getByTestId('stats-device').selectOption('');
    await eventually(() => view.getByTestId('stats-plays').textContent(), '5');

    // An admin may look at anyone's statistics.
    await view.getByTestId('stats-user').selectOption({ label: 'robin' });
    await eventually(() => view.getByTestId('stats-top-artist').textContent(), 'untagged');
    expect(await view.getByTestId('stats-plays').textContent()).toBe('2');
  });

  it('says so when a custom range ends before it starts, and a slower earlier load does not draw over it', async () => {
    const { page } = browser;
    const view = await openSection(page, 'stats');
    await view.getByTestId('stats-plays').waitFor();
    // The load for "from 30 June" answers late, after the range has become impossible.
    const slow = async (route: Route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => undefined);
    };
    await page.route('**/api/stats/listening-time*', slow);
    try {
      await view.getByTestId('stats-range-custom').click();
      await view.getByTestId('stats-from').fill('2026-06-30');
      await view.getByTestId('stats-to').fill('2026-06-01');
      await eventually(
        () => view.getByTestId('stats-range-error').textContent(),
        'The “From” date is after the “To” date.',
      );
      await new Promise((resolve) => setTimeout(resolve, 2500));
      // The message stays shown, and no late figures appear under it.
      expect(await view.getByTestId('stats-range-error').isVisible()).toBe(true);
      expect(await view.getByTestId('stats-plays').count()).toBe(0);
    } finally {
      await page.unroute('**/api/stats/listening-time*', slow);
    }
  }, 60_000);

  it('opens a User on their own statistics', async () => {
    const { page } = browser;
    await signOut(page);
    const statsRequests: URL[] = [];
    const record = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/stats/')) statsRequests.push(url);
    };
    page.on('request', record);
    try {
      await signIn(member);
      expect(await texts(page.getByTestId('tabs').locator('.tab'))).toEqual([
        'Statistics',
        'Listen',
        'History',
        'Apps',
        'Updates',
        'Account',
      ]);
      const view = page.getByTestId('view-stats');
      await view.getByTestId('stats-range-all').click();
      await eventually(() => view.getByTestId('stats-top-artist').textContent(), 'untagged');
      expect(await view.getByTestId('stats-plays').textContent()).toBe('2');
      expect(
        await view
          .getByTestId('top-artists-item')
          .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.label)),
      ).toEqual(['untagged']);
      // Until they pick someone else, every read asked for Robin's own statistics.
      expect(await view.getByTestId('stats-user').inputValue()).toBe(member.id);
      const reads = statsRequests.filter((url) => url.pathname !== '/api/stats/members');
      expect(reads.length).toBeGreaterThan(0);
      for (const url of reads) expect([member.id, null]).toContain(url.searchParams.get('userId'));
      await screenshot(page, 'stats-user');
    } finally {
      page.off('request', record);
      await signOut(page);
    }
  });
});
