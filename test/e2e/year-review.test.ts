import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { YearInReview } from '../../server/contract/history.js';
import { fakeScanner } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { postForm } from '../support/server.js';
import { axeViolations, type AxeViolation } from './axe.js';
import { eventually, openSection, screenshot, SCREENSHOTS, signOut, useServerAndBrowser } from './browser.js';
import { library } from './dashboard-seed.js';

/**
 * The year in review as a household reads it: a seeded year told in cards whose figures are the
 * API's, the household's members ranked as privacy allows, the story saved as a PNG and printed.
 */
const { t, browser, signIn } = useServerAndBrowser({ scanner: fakeScanner(library) });
let robin: TestUser;
let kim: TestUser;
let sam: TestUser;
let wall: TestUser;
const YEAR = new Date().getFullYear() - 1;
const at = (month: number, day: number, hour: number, minute = 0) =>
  new Date(YEAR, month - 1, day, hour, minute).toISOString();

async function log(user: TestUser | string, track: string, dateTime: string) {
  const token = typeof user === 'string' ? user : user.token;
  const response = await postForm(t, '/api/stats/log-play', { id: track, dateTime }, token);
  if (response.status !== 200) throw new Error(`log-play: ${response.status} ${await response.text()}`);
}

async function review(token: string, household: boolean): Promise<YearInReview> {
  const response = await t.call(`/api/stats/year-in-review?year=${YEAR}&household=${household}`, { token });
  expect(response.status).toBe(200);
  return (await response.json()) as YearInReview;
}

beforeAll(async () => {
  [robin, kim, sam, wall] = await Promise.all([
    makeUser(t, { username: 'robin' }),
    makeUser(t, { username: 'kim' }),
    makeUser(t, { username: 'sam' }),
    makeUser(t, { username: 'wall', role: 'Pass' }),
  ]);
  await postForm(t, '/api/users/settings', { publicStats: 'true' }, robin.token);
  await postForm(t, '/api/users/settings', { publicStats: 'true' }, kim.token);
  await postForm(t, '/api/users/settings', { publicStats: 'false' }, sam.token);
  await postForm(t, '/api/users/settings', { publicStats: 'false' }, t.adminToken);
  // The Admin's year: Harbour Song on repeat one Saturday in April, a week in a row in May, a
  // few evenings over the year; heard before the year, The Static is not new.
  await log(t.adminToken, 't1', new Date(YEAR - 1, 10, 3, 20).toISOString());
  await log(t.adminToken, 't4', at(1, 1, 0, 30));
  for (const minute of [0, 5, 10, 15, 20]) await log(t.adminToken, 't0', at(4, 4, 10, minute));
  await log(t.adminToken, 't8', at(4, 4, 21));
  for (let day = 10; day <= 16; day += 1) await log(t.adminToken, `t${day % 12}`, at(5, day, 19));
  for (const [month, track] of [
    [7, 't2'],
    [9, 't6'],
    [11, 't1'],
    [12, 't3'],
  ] as const)
    await log(t.adminToken, track, at(month, 3, 8));
  // The household: robin listens most, kim a little, sam privately; kim's year has three plays.
  for (let i = 0; i < 24; i += 1) await log(robin, `t${(i * 5) % 12}`, at(1 + (i % 12), 2 + i, 7 + (i % 14)));
  await log(kim, 't3', at(2, 1, 9));
  await log(kim, 't7', at(6, 9, 18));
  await log(kim, 't11', at(10, 20, 22));
  for (let i = 0; i < 6; i += 1) await log(sam, 't5', at(8, 1 + i * 3, 12));
});

async function openYear(page: Page) {
  const view = await openSection(page, 'history');
  await view.getByTestId('review-year').selectOption(String(YEAR));
  await view.getByTestId('story-time').waitFor();
  return view;
}

const cardKeys = (page: Page) =>
  page.getByTestId('story-card').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.key));

const dayInWords = (date: string) =>
  new Date(`${date}T12:00:00`).toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  });

describe('The year in review', () => {
  it('tells a seeded year in cards whose figures are the API’s', async () => {
    const { page } = browser;
    await signIn();
    const view = await openYear(page);
    const api = await review(t.adminToken, false);
    expect(await cardKeys(page)).toEqual([
      'time',
      'artist',
      'album',
      'busiest',
      'streak',
      'first',
      'replayed',
      'new-artists',
    ]);
    const text = (testid: string) => view.getByTestId(testid).textContent();
    expect(await text('story-time-detail')).toBe(`${api.plays} plays in ${YEAR}`);
    expect(api.plays).toBe(18);
    expect(await text('story-artist')).toBe(api.topArtists[0]!.name);
    expect(await text('story-album')).toBe(api.topAlbums[0]!.name);
    // Saturday 4 April or whichever weekday it falls on that year, in words, never an ISO date.
    expect(api.mostPlayedDay).toEqual({ date: `${YEAR}-04-04`, plays: 6 });
    expect(await text('story-busiest')).toBe(dayInWords(api.mostPlayedDay!.date));
    expect(await text('story-busiest')).toMatch(/^[A-Z][a-z]+day 4 April$/u);
    expect(await text('story-streak')).toBe(`${api.longestStreak!.days} days in a row`);
    expect(await text('story-streak-detail')).toBe('10–16 May');
    expect(await text('story-first')).toBe(api.firstPlay!.track.name);
    expect(await text('story-first-detail')).toMatch(/ 1 January at 00:30$/u);
    expect(await text('story-replayed')).toBe('Harbour Song');
    expect(await text('story-replayed-detail')).toBe(
      `You played it 5 times on ${dayInWords(`${YEAR}-04-04`)}`,
    );
    expect(await text('story-new-artists')).toBe(`${api.newArtists.count} new artists found`);
    // The pictures of the top artist and album are loaded through the API.
    for (const key of ['artist', 'album'])
      await eventually(
        () =>
          view
            .locator(`.story-${key} img`)
            .evaluate(
              (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
            ),
        true,
      );
    // The month and hour charts are the dashboard's, every hour of the day kept.
    const plays = (testid: string) =>
      view
        .getByTestId(`${testid}-plays`)
        .evaluateAll((cells) => cells.map((c) => Number((c as HTMLElement).dataset.plays)));
    expect(await plays('review-months')).toEqual(api.months.map((m) => m.plays));
    expect(await plays('review-hours')).toEqual(api.hours.map((h) => h.plays));
    expect((await plays('review-hours')).length).toBe(24);
    expect(await view.getByTestId('review-hours').locator('canvas').count()).toBeGreaterThan(0);
    // One listener's year has no household strip.
    expect(await view.getByTestId('review-members').count()).toBe(0);
    await screenshot(page, 'year-review');
  });

  it('saves the story as a PNG made in the page', async () => {
    const { page } = browser;
    const view = page.getByTestId('view-history');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      view.getByTestId('review-save-picture').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`melon-${YEAR}.png`);
    const png = await readFile(await download.path());
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // IHDR: width then height, big-endian.
    expect(png.readUInt32BE(16)).toBe(1080);
    expect(png.readUInt32BE(20)).toBeGreaterThan(1000);
    await download.saveAs(`${SCREENSHOTS}/year-review-picture.png`);
  });

  it('prints the story on white without navigation or player', async () => {
    const { page } = browser;
    await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
    try {
      for (const selector of ['#tabs', '.topbar', '#player', '[data-testid="review-year"]', '.import-form'])
        expect(await page.locator(selector).first().isVisible(), selector).toBe(false);
      expect(await page.getByTestId('review-story').isVisible()).toBe(true);
      const backgrounds = await page
        .getByTestId('story-card')
        .evaluateAll((cards) => cards.map((c) => getComputedStyle(c).backgroundColor));
      expect(new Set(backgrounds)).toEqual(new Set(['rgb(255, 255, 255)']));
      await screenshot(page, 'year-review-print');
    } finally {
      await page.emulateMedia({ media: 'screen', colorScheme: 'light' });
    }
  });

  it('ranks the household’s members, each with their top artist, as privacy allows', async () => {
    const { page } = browser;
    const view = page.getByTestId('view-history');
    await view.getByTestId('review-household').check();
    await view.getByTestId('review-members').waitFor();
    const api = await review(t.adminToken, true);
    const rows = () =>
      view
        .getByTestId('review-members-item')
        .evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset.label));
    expect(api.members.map((m) => m.username)).toEqual(['robin', 'admin', 'sam', 'kim']);
    await eventually(rows, ['robin', 'admin', 'sam', 'kim']);
    expect(await view.getByTestId('review-members-item').first().textContent()).toContain(
      `Top artist: ${api.members[0]!.topArtist!.name}`,
    );
    expect(await view.getByTestId('story-time-detail').textContent()).toBe(`${api.plays} plays in ${YEAR}`);
    await screenshot(page, 'year-review-household');
    await signOut(page);

    // A member sees the public members only: sam's year stays private.
    await signIn(robin);
    const robins = await openYear(page);
    await robins.getByTestId('review-household').check();
    await eventually(rows, ['robin', 'kim']);
    await signOut(page);
  });

  it('leaves out the cards with nothing to say for a year of three plays', async () => {
    const { page } = browser;
    await signIn(kim);
    await openYear(page);
    expect(await cardKeys(page)).toEqual(['time', 'artist', 'album', 'first', 'new-artists']);
    await screenshot(page, 'year-review-three-plays');
    await signOut(page);
  });

  it('shows a wall display the household’s year, without the import form', async () => {
    const { page } = browser;
    await signIn(wall);
    const view = await openYear(page);
    expect(await view.getByTestId('view-heading').textContent()).toBe('Year in review');
    expect(await view.getByTestId('review-household').isChecked()).toBe(true);
    await view.getByTestId('review-members').waitFor();
    expect(await view.getByTestId('import-file').count()).toBe(0);
    await screenshot(page, 'year-review-wall');
    await signOut(page);
  });

  it('has no accessibility violations at phone and desktop widths, light and dark', async () => {
    const { page } = browser;
    await signIn();
    const view = await openYear(page);
    await view.getByTestId('review-household').check();
    await view.getByTestId('review-members').waitFor();
    const found: Array<AxeViolation & { where: string }> = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await eventually(() => page.locator('.placeholder').count(), 0);
        const where = `year review ${width}px ${scheme}`;
        found.push(...(await axeViolations(page)).map((violation) => ({ ...violation, where })));
        await screenshot(page, `a11y-year-review-${width}-${scheme}`);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
        expect(wide, where).toBe(false);
      }
    }
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(found).toEqual([]);
  }, 120_000);
});
