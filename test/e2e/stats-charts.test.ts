import { beforeAll, describe, expect, it } from 'vitest';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { principalOf } from '../factories/accounts.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { eventually, openSection, screenshot, useServerAndBrowser } from './browser.js';

/**
 * The statistics' charts as a household reads them: numbers written as people write them, axes that
 * fit their bars, nothing drawn for nothing, a value behind every heatmap cell, and rows that open
 * the music in Listen. The canvas cannot be read, so the chart states its axis on its element.
 */
const PLAYS = 1234;
const library = makeLibrary({
  artists: [
    { id: 'ar1', name: 'June Parade' },
    // What tagging tools write for files they could not name.
    { id: 'ar2', name: 'Unknown Artist' },
  ],
  albums: [{ id: 'al1', name: 'Parade', artistIds: ['ar1'] }],
  tracks: [
    { id: 't1', name: 'Copper', albumId: 'al1', artistIds: ['ar2'] },
    { id: 't2', name: 'Tide', albumId: 'al1', artistIds: ['ar1'] },
  ],
});
const { t, browser, signIn } = useServerAndBrowser({ scanner: fakeScanner(library) });
let sam: TestUser;
/** When all of Sam's plays were: one day, a few minutes before now. */
let playedAt: number;

beforeAll(async () => {
  sam = await makeUser(t, { username: 'sam' });
  // Neither is a person of the household's chart: a wall display, and someone who played nothing.
  await makeUser(t, { username: 'wall', role: 'Pass' });
  await makeUser(t, { username: 'quiet' });
  const now = Date.now();
  t.clock.set(now);
  // Within the last hour, and after midnight UTC, so every play is on today (the tests run in UTC).
  const midnight = new Date(now).setUTCHours(0, 0, 0, 0);
  playedAt = Math.max(midnight + 1000, now - 60 * 60_000);
  const caller = principalOf(sam);
  for (let i = 0; i < PLAYS; i++) {
    await t.server.services.stats.log(caller, 'play', {
      id: i % 3 === 0 ? 't2' : 't1',
      device: 'Kitchen',
      dateTime: playedAt + Math.floor((i * (now - playedAt)) / PLAYS),
    });
  }
}, 120_000);

describe('Statistics charts', () => {
  it('writes every number as people do: 1,234, in the headline, the chart table and the top lists', async () => {
    const { page } = browser;
    await signIn(sam);
    const view = await openSection(page, 'stats');
    await eventually(() => view.getByTestId('stats-plays').textContent(), '1,234');
    const table = await view.getByTestId('chart-activity-plays').allTextContents();
    expect(table.filter((text) => text !== '0')).toEqual(['1,234']);
    expect(await view.getByTestId('top-albums-item').first().locator('.ranked-value').textContent()).toMatch(
      /^1,234 plays/,
    );
    await screenshot(page, 'stats-numbers');
  });

  it('never makes "Unknown Artist" the top artist, lists devices without all-time counts, and groups recent plays by day', async () => {
    const view = browser.page.getByTestId('view-stats');
    expect(await view.getByTestId('top-artists-item').first().getAttribute('data-label')).toBe(
      'Unknown Artist',
    );
    expect(await view.getByTestId('stats-top-artist').textContent()).toBe('June Parade');
    expect(await view.getByTestId('stats-device').locator('option').allTextContents()).toEqual([
      'All devices',
      'Kitchen',
    ]);
    expect(await view.getByTestId('recent-day').allTextContents()).toEqual(['Today']);
    const items = view.getByTestId('recent-plays-item');
    expect(await items.evaluateAll((all) => all.filter((item) => !(item as HTMLElement).hidden).length)).toBe(
      10,
    );
    expect(await items.first().locator('small').textContent()).toMatch(
      / · (just now|\d+ minutes? ago|\d\d:\d\d) · Kitchen$/,
    );
    await view.getByTestId('recent-more').click();
    expect(await items.evaluateAll((all) => all.filter((item) => !(item as HTMLElement).hidden).length)).toBe(
      50,
    );
  });

  it('lists as people only those who played something, never a wall display', async () => {
    const { page } = browser;
    const view = page.getByTestId('view-stats');
    await view.getByTestId('stats-user').selectOption('everyone');
    const people = view.getByTestId('household-people-item');
    await eventually(
      () => people.evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.label)),
      ['sam (you)'],
    );
    await view.getByTestId('stats-user').selectOption(sam.id);
    await eventually(() => view.getByTestId('stats-plays').textContent(), '1,234');
  });

  it('gives "this week" one tick a day and whole first and last bars', async () => {
    const { page } = browser;
    const view = page.getByTestId('view-stats');
    await view.getByTestId('stats-range-week').click();
    const chart = view.getByTestId('chart-activity');
    await eventually(() => chart.getAttribute('data-step'), 'day');
    // Half a day before the first bar and after the last: whole bars, one per day. Read together
    // and until they agree: on a busy machine the table of the range before may still be there.
    const daysAndBars = async () => {
      const from = Date.parse((await chart.getAttribute('data-axis-from'))!);
      const to = Date.parse((await chart.getAttribute('data-axis-to'))!);
      const bars = await view.getByTestId('chart-activity-table').locator('tbody tr').count();
      return (to - from) / 86_400_000 - bars;
    };
    await eventually(daysAndBars, 0);
  });

  it('draws an all-time chart of a single day around that day, not across years', async () => {
    const { page } = browser;
    const view = page.getByTestId('view-stats');
    await view.getByTestId('stats-range-all').click();
    const chart = view.getByTestId('chart-activity');
    await eventually(() => view.getByTestId('chart-activity-table').locator('tbody tr').count(), 1);
    const from = Date.parse((await chart.getAttribute('data-axis-from'))!);
    const to = Date.parse((await chart.getAttribute('data-axis-to'))!);
    expect(to - from).toBe(86_400_000);
    // The day's bar stands on its start, with half a day on either side.
    const day = new Date(playedAt).setUTCHours(0, 0, 0, 0);
    expect(from).toBe(day - 43_200_000);
    expect(to).toBe(day + 43_200_000);
    await screenshot(page, 'stats-all-time-one-day');
  });

  it('says the value of each heatmap cell on hover', async () => {
    const view = browser.page.getByTestId('view-stats');
    const cells = view.getByTestId('stats-heatmap').locator('td.heat-cell');
    const titles = await cells.evaluateAll((tds) => tds.map((td) => td.getAttribute('title')));
    expect(titles).toHaveLength(7 * 24);
    expect(
      titles.every((title) =>
        /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:00–\d\d:00: [\d,]+ plays?$/.test(title ?? ''),
      ),
    ).toBe(true);
    expect(titles.some((title) => title?.endsWith(': 0 plays'))).toBe(true);
  });

  it('opens a top album, artist or genre in Listen', async () => {
    const { page } = browser;
    const view = page.getByTestId('view-stats');
    await view.getByTestId('top-albums-item').first().getByRole('link', { name: 'Parade' }).click();
    await page.getByTestId('listen-album').getByTestId('track-row').first().waitFor();
    expect(new URL(page.url()).hash).toBe('#listen?album=al1');
    await page.goBack();
    await view.getByTestId('top-artists').getByRole('link', { name: 'June Parade' }).click();
    await page.getByTestId('listen-artist').waitFor();
    expect(new URL(page.url()).hash).toBe('#listen?artist=ar1');
  });

  it('keeps every month and hour of the day in the year review, and never crowns Unknown Artist', async () => {
    const { page } = browser;
    const view = await openSection(page, 'history');
    await view.getByTestId('review-year').selectOption(String(new Date().getUTCFullYear()));
    await eventually(
      () => view.getByTestId('story-time-detail').textContent(),
      `1,234 plays in ${new Date().getUTCFullYear()}`,
    );
    // The charts' numbers tables: all twelve months and 24 hours, those without plays as 0.
    const plays = (testid: string) =>
      view
        .getByTestId(`${testid}-plays`)
        .evaluateAll((cells) => cells.map((c) => Number((c as HTMLElement).dataset.plays)));
    const months = await plays('review-months');
    expect(months).toHaveLength(12);
    expect(months.filter((n) => n === 0)).toHaveLength(11);
    const hours = await plays('review-hours');
    expect(hours).toHaveLength(24);
    expect(hours.reduce((sum, n) => sum + n, 0)).toBe(PLAYS);
    // Two plays in three are of untagged files: the top artist card names the real artist.
    expect(await view.getByTestId('story-artist').textContent()).toBe('June Parade');
    await screenshot(page, 'review-zero-months');
  });
});
