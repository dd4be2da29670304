import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { album, artist, fakeScanner, libraryOf, track } from '../factories/library.js';
import { principalOf } from '../factories/accounts.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { postForm, postJson } from '../support/server.js';
import { axeViolations, type AxeViolation } from './axe.js';
import { eventually, openSection, screenshot, texts, useServerAndBrowser, inEveryLook } from './browser.js';

/**
 * The statistics as a household reads them: a headline with context (the change from the period
 * before, days listened, new artists), top lists with covers that open Listen, and a Pass account's
 * wall display that keeps itself current and shows only what a Pass may see.
 */
const DAY = 86_400_000;
const library = libraryOf([
  artist('ar1', 'June Parade', [
    album('al1', 'Parade', [track('t1', 'Tide'), track('t3', 'Untitled', { artistIds: ['ar2'] })]),
  ]),
  artist('ar2', 'Unknown Artist'),
  artist('ar3', 'Sea Lanterns', [album('al2', 'Harbour Lights', [track('t2', 'Lantern')])]),
]);
const { t, browser, signIn } = useServerAndBrowser({ scanner: fakeScanner(library) });
let sam: TestUser;
let kim: TestUser;
let wall: TestUser;
/** Today, a little before now: every play of this week is on this day (the tests run in UTC). */
let today: number;

beforeAll(async () => {
  [sam, kim, wall] = await Promise.all([
    makeUser(t, { username: 'sam' }),
    makeUser(t, { username: 'kim' }),
    makeUser(t, { username: 'hall', role: 'Pass' }),
  ]);
  await postForm(t, '/api/users/settings', { publicStats: 'false' }, kim.token);
  const now = Date.now();
  t.clock.set(now);
  today = Math.max(new Date(now).setUTCHours(0, 0, 0, 0) + 60_000, now - 30 * 60_000);
  const log = (user: TestUser, id: string, at: number) =>
    t.server.services.stats.log(principalOf(user), 'play', { id, device: 'Kitchen', dateTime: at });
  // Last week, the same day: four plays of June Parade. This week: six plays, three of an untagged
  // file ("Unknown Artist", the most played), two of Sea Lanterns (new), one of June Parade.
  for (let i = 0; i < 4; i++) await log(sam, 't1', today - 7 * DAY + i * 1000);
  for (const [i, id] of ['t3', 't3', 't3', 't2', 't2', 't1'].entries()) await log(sam, id, today + i * 1000);
  // Kim keeps her statistics private: a Pass must not see her plays or what she plays now.
  for (let i = 0; i < 5; i++) await log(kim, 't2', today + i * 1000);
}, 120_000);

describe('Statistics headline and top lists', () => {
  it('compares with last week, counts days listened and new artists, and never promotes "Unknown Artist"', async () => {
    const { page } = browser;
    await signIn(sam);
    await openSection(page, 'stats');
    await page.getByTestId('stats-range-week').click();
    const view = page.getByTestId('view-stats');
    await eventually(() => view.getByTestId('stats-plays').textContent(), '6');
    expect(await view.getByTestId('stats-plays-change').textContent()).toBe('+50% vs last week');
    expect(await view.getByTestId('stats-listening-time-change').textContent()).toBe('+50% vs last week');
    expect(await view.getByTestId('stats-days').textContent()).toBe('1');
    expect(await view.getByTestId('stats-new-artists').textContent()).toBe('1');
    expect(await view.getByTestId('stats-top-artist').textContent()).toBe('Sea Lanterns');
    // A custom range says how long the period it compares with is.
    const day = new Date(today).toISOString().slice(0, 10);
    await page.getByTestId('stats-range-custom').click();
    await view.getByTestId('stats-from').fill(day);
    await view.getByTestId('stats-to').fill(day);
    await view.getByTestId('stats-to').dispatchEvent('change');
    await eventually(() => view.getByTestId('stats-plays-change').textContent(), 'vs none the day before');
    await page.getByTestId('stats-range-week').click();
    await eventually(() => view.getByTestId('stats-plays').textContent(), '6');
    await screenshot(page, 'stats-headline');
    // Everyone: Kim's plays are private and the wall display is not a person, so the same figures.
    await view.getByTestId('stats-user').selectOption('everyone');
    await view.getByTestId('household-people').waitFor();
    expect(await view.getByTestId('stats-days').textContent()).toBe('1');
    expect(await view.getByTestId('stats-new-artists').textContent()).toBe('1');
    expect(await view.getByTestId('stats-plays-change').textContent()).toBe('+50% vs last week');
    await view.getByTestId('stats-user').selectOption(sam.id);
    await eventually(() => view.getByTestId('stats-top-artist').textContent(), 'Sea Lanterns');
  });

  it('shows a rank, a cover, the title over "artist · album" and the figures in one column, and opens Listen', async () => {
    const { page } = browser;
    const view = page.getByTestId('view-stats');
    const tracks = view.getByTestId('top-tracks-item');
    await eventually(() => tracks.count(), 3);
    expect(await texts(tracks.locator('.cover-rank'))).toEqual(['1', '2', '3']);
    expect(await texts(tracks.locator('.ranked-name'))).toEqual(['Untitled', 'Lantern', 'Tide']);
    expect(await texts(tracks.locator('.cover-detail'))).toEqual([
      'Unknown Artist · Parade',
      'Sea Lanterns · Harbour Lights',
      'June Parade · Parade',
    ]);
    // Every cover is the album's small picture, loaded once seen, with a placeholder until then.
    const frames = view.getByTestId('top-albums-item').locator('.cover-frame');
    expect(await frames.evaluateAll((all) => all.map((frame) => frame.getAttribute('data-cover')))).toEqual([
      'album/al1',
      'album/al2',
    ]);
    await eventually(
      () => frames.evaluateAll((all) => all.every((f) => f.classList.contains('cover-loaded'))),
      true,
    );
    const images = await frames
      .locator('img')
      .evaluateAll((all) =>
        all.map((img) => ({ alt: img.getAttribute('alt'), src: (img as HTMLImageElement).src.slice(0, 5) })),
      );
    expect(images).toEqual([
      { alt: '', src: 'blob:' },
      { alt: '', src: 'blob:' },
    ]);
    // The figures' column is the same for every row: right-aligned at one edge, one width.
    const boxes = await tracks.locator('.cover-figure').evaluateAll((all) =>
      all.map((figure) => {
        const box = figure.getBoundingClientRect();
        return { right: Math.round(box.right), width: Math.round(box.width) };
      }),
    );
    expect(new Set(boxes.map((box) => `${box.right}/${box.width}`)).size).toBe(1);
    // The row's link names the track, its artist and album; it opens the album in Listen.
    await tracks.nth(1).getByRole('link', { name: 'Lantern Sea Lanterns · Harbour Lights' }).click();
    await page.getByTestId('listen-album').getByTestId('track-row').first().waitFor();
    expect(new URL(page.url()).hash).toBe('#listen?album=al2');
    await page.goBack();
    await view.getByTestId('top-artists').getByRole('link', { name: 'Sea Lanterns' }).click();
    await page.getByTestId('listen-artist').waitFor();
    expect(new URL(page.url()).hash).toBe('#listen?artist=ar3');
  });

  it('fetches a cover only when its row comes near the screen', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 600 });
    const pictures: string[] = [];
    const seen = (request: { url(): string }) => {
      if (new URL(request.url()).pathname.startsWith('/api/art/')) pictures.push(request.url());
    };
    page.on('request', seen);
    try {
      await page.goto(`${t.url}/admin#stats?range=week`);
      const first = page.getByTestId('top-tracks-item').first();
      await first.waitFor();
      await page.getByTestId('stats-plays').waitFor();
      expect(pictures).toEqual([]);
      // Below the headline and the chart on a phone: not fetched until scrolled to.
      expect(
        await first.locator('.cover-frame').evaluate((frame) => frame.classList.contains('cover-loaded')),
      ).toBe(false);
      await first.scrollIntoViewIfNeeded();
      await first.locator('.cover-loaded').waitFor();
      expect(pictures.some((url) => url.endsWith('/api/art/album/al1?size=128'))).toBe(true);
    } finally {
      page.off('request', seen);
      await page.setViewportSize({ width: 1200, height: 900 });
    }
  });
});

/** Requests the wall page makes to `path`, counted. */
function countRequests(page: Page, path: string): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) seen.count += 1;
  });
  return seen;
}

describe('The wall display (Pass)', () => {
  it('shows now playing, today and this week with covers, only for those it may see, and refreshes itself calmly', async () => {
    await postJson(t, '/api/now-playing', { id: 't2', device: 'Kitchen' }, sam.token);
    await postJson(t, '/api/now-playing', { id: 't1', device: 'Bedroom' }, kim.token);
    const page = await browser.context.newPage();
    page.on('pageerror', (error) => browser.pageErrors.push(error.message));
    await page.clock.install();
    try {
      await signIn(wall, page);
      const view = page.getByTestId('view-stats');
      await view.getByTestId('wall').waitFor();
      const playing = view.getByTestId('wall-now-playing-item');
      await eventually(() => playing.count(), 1);
      expect(await playing.textContent()).toContain('Lantern');
      expect(await playing.textContent()).toContain('sam');
      expect(await playing.textContent()).not.toContain('kim');
      // Sam's six plays today; Kim's five are private.
      await eventually(() => view.getByTestId('wall-today-plays').textContent(), '6');
      expect(await view.getByTestId('wall-latest-item').count()).toBe(5);
      expect(await view.getByTestId('wall-latest').textContent()).not.toContain('kim');
      expect(await texts(view.getByTestId('wall-week-albums-item').locator('.ranked-name'))).toEqual([
        'Parade',
        'Harbour Lights',
      ]);
      await eventually(
        () =>
          view
            .getByTestId('wall-week-albums-item')
            .locator('.cover-frame')
            .evaluateAll((all) => all.every((f) => f.classList.contains('cover-loaded'))),
        true,
      );
      // Nothing a Pass may not see: the people's statistics it may not read are not asked for.
      const reads = countRequests(page, '/api/now-playing');
      // Hidden (another tab in front): no reading, however long.
      await page.evaluate(() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await page.clock.fastForward(5 * 60_000);
      expect(reads.count).toBe(0);
      // Shown again: it reads at once, and sees a play logged meanwhile.
      await t.server.services.stats.log(principalOf(sam), 'play', { id: 't1', device: 'Kitchen' });
      await page.evaluate(() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await eventually(() => view.getByTestId('wall-today-plays').textContent(), '7');
      expect(reads.count).toBe(1);
      // Then once a minute, not more often.
      await page.clock.fastForward(30_000);
      expect(reads.count).toBe(1);
      await page.clock.fastForward(31_000);
      await eventually(() => reads.count, 2);
      await screenshot(page, 'stats-wall');
      // The ordinary statistics stay one link away.
      await view.getByRole('link', { name: 'All statistics' }).click();
      await eventually(() => page.getByTestId('stats-user').inputValue(), 'everyone');
    } finally {
      await page.close();
    }
  });
});

describe('Accessibility of the statistics and the wall (axe-core)', () => {
  it('has no violations at 390 px and 1440 px, light and dark', async () => {
    const { page } = browser;
    const found: Array<AxeViolation & { where: string }> = [];
    const views: Array<[string, TestUser, string, string]> = [
      [sam.username, sam, '#stats?range=week', 'top-albums-item'],
      [wall.username, wall, '#stats', 'wall-week-albums-item'],
    ];
    for (const [name, user, hash, ready] of views) {
      await page.goto(`${t.url}/admin`);
      await page.locator('[data-testid="whoami"], [data-testid="signin-form"]').first().waitFor();
      if (await page.getByTestId('whoami').count()) {
        await page.getByTestId('signout').click();
        await page.getByTestId('signin-form').waitFor();
      }
      await signIn(user);
      await inEveryLook(page, async ({ scheme, width }) => {
        await page.goto(`${t.url}/admin${hash}`);
        await page.getByTestId(ready).first().scrollIntoViewIfNeeded();
        await page.getByTestId(ready).first().locator('.cover-loaded').waitFor();
        const where = `${name === wall.username ? 'wall' : 'stats'} ${width}px ${scheme}`;
        found.push(...(await axeViolations(page)).map((violation) => ({ ...violation, where })));
        // From the top: a full-page picture taken scrolled down draws the sticky header mid-page.
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, `stats-${name === wall.username ? 'wall' : 'covers'}-${width}-${scheme}`);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
        expect(wide, where).toBe(true);
      });
    }
    expect(found).toEqual([]);
  });
});
