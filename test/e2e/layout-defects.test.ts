import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Track } from '../../server/contract/library.js';
import { makeUser } from '../factories/users.js';
import { useFixtureLibraryCopy } from '../support/fixture-library.js';
import { axeViolations } from './axe.js';
import { eventually, openSection, screenshot, useServerAndBrowser, inEveryLook } from './browser.js';

/**
 * The page as a household meets it on a phone and on a desktop: the section menu, dialogs that give
 * focus back, a backwards date range said inside the filter card, balanced top lists, and artwork
 * that holds its place while it loads.
 */
const fixture = useFixtureLibraryCopy('melon-e2e-layout-');
const { t, browser, signIn } = useServerAndBrowser(() => ({ config: { libraryDirs: [fixture.library] } }));

beforeAll(async () => {
  const tracks = (
    (await (await t.call('/api/tracks?count=100', { token: t.adminToken })).json()) as { items: Track[] }
  ).items;
  for (const track of tracks.slice(0, 3)) {
    const response = await t.call(`/api/stats/log-play?id=${track.id}&device=Kitchen`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      token: t.adminToken,
    });
    expect(response.status).toBe(200);
  }
  await makeUser(t, { username: 'robin' });
  await signIn();
});

const focused = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

async function noViolations(page: Page, name: string, prepare: () => Promise<void>): Promise<string[]> {
  const found: string[] = [];
  await inEveryLook(page, async ({ scheme, width }) => {
    await prepare();
    found.push(
      ...(await axeViolations(page)).map((v) => `${name} ${scheme} ${width}: ${v.id} ${v.nodes.join(' ')}`),
    );
    await screenshot(page, `${name}-${width}-${scheme}`);
  });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1200, height: 900 });
  return found;
}

describe('On a phone', () => {
  it('folds the section links behind a Menu button that the keyboard opens and closes', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${t.url}/admin#stats`);
    const menu = page.getByTestId('menu-toggle');
    await menu.waitFor();
    // Folded: one button in the bar, not lines of tabs.
    expect(await page.getByTestId('tab-library').isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.getAttribute('aria-controls')).toBe('tabs');
    await screenshot(page, 'menu-closed-390');
    const bar = (await page.locator('.topbar').boundingBox())!;
    expect(bar.height).toBeLessThan(80);

    await menu.focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByTestId('tab-library').isVisible()).toBe(true);
    expect(await page.getByTestId('tab-stats').getAttribute('aria-current')).toBe('page');
    await screenshot(page, 'menu-open-390');
    // Into the list, then Escape: closed, and focus is back on the button.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^tab-/);
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await focused(page)).toBe('menu-toggle');
    expect(await page.getByTestId('tab-library').isVisible()).toBe(false);

    // Choosing a section opens it and folds the menu away.
    await page.keyboard.press('Enter');
    await page.getByTestId('tab-library').click();
    await page.getByTestId('view-library').waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByTestId('tab-library').getAttribute('aria-current')).toBe('page');

    const found = await noViolations(page, 'menu', async () => {
      await page.goto(`${t.url}/admin#library`);
      await page.getByTestId('view-library').waitFor();
      // Open, so axe also looks at the list (it stays open from the last round at another width).
      if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false')
        await menu.click();
    });
    expect(found).toEqual([]);
  });

  it('keeps the tabs on one line on a desktop and a laptop, with no Menu button', async () => {
    const { page } = browser;
    await page.goto(`${t.url}/admin#stats`);
    await page.getByTestId('tab-library').waitFor();
    for (const width of [1440, 1200]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.getByTestId('menu-toggle').isVisible()).toBe(false);
      const tops = await page
        .getByTestId('tabs')
        .locator('a')
        .evaluateAll(
          (links) => new Set(links.map((link) => Math.round(link.getBoundingClientRect().top))).size,
        );
      expect(tops, `${width} px`).toBe(1);
      await screenshot(page, `tabs-${width}`);
    }
    await page.setViewportSize({ width: 1200, height: 900 });
  });
});

describe('Dialogs', () => {
  it('give focus back to the button that opened them when Escape closes them', async () => {
    const { page } = browser;
    const view = await openSection(page, 'users');
    const remove = view.locator('[data-username="robin"]').getByRole('button', { name: 'Delete' });
    await remove.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').waitFor();
    expect(await focused(page)).toBe('confirm-cancel');
    await page.keyboard.press('Escape');
    await eventually(() => page.getByTestId('confirm-dialog').count(), 0);
    expect(await remove.evaluate((button) => button === document.activeElement)).toBe(true);
    // Escape is a "no": robin is still there.
    expect(await view.locator('[data-username="robin"]').count()).toBe(1);
  });
});

describe('Statistics filters', () => {
  it('say a backwards range next to its fields and keep the Device menu whole', async () => {
    const { page } = browser;
    const open = async () => {
      await page.goto(`${t.url}/admin#stats?range=custom&from=2026-03-10&to=2026-03-01`);
      await page.getByTestId('stats-range-error').waitFor();
    };
    await open();
    const card = page.locator('section.card', { has: page.getByTestId('stats-user') });
    expect(await card.getByTestId('stats-range-error').count()).toBe(1);
    expect(await page.getByTestId('stats-content').getByTestId('stats-range-error').count()).toBe(0);
    for (const field of ['stats-from', 'stats-to']) {
      expect(await page.getByTestId(field).getAttribute('aria-describedby')).toBe('stats-range-error');
      expect(await page.getByTestId(field).getAttribute('aria-invalid')).toBe('true');
    }
    await eventually(() => page.getByTestId('stats-device').locator('option').count(), 2);
    const device = (await page.getByTestId('stats-device').boundingBox())!;
    expect(device.width).toBeGreaterThan(120);
    const found = await noViolations(page, 'stats-backwards', open);
    expect(found).toEqual([]);

    // Put right, the message goes and the fields are no longer marked.
    await page.getByTestId('stats-to').fill('2026-03-20');
    await page.getByTestId('stats-to').dispatchEvent('change');
    await eventually(() => page.getByTestId('stats-range-error').isVisible(), false);
    expect(await page.getByTestId('stats-to').getAttribute('aria-describedby')).toBe(null);
  });

  it('lay the top lists out with no card alone on its row', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${t.url}/admin#stats?range=all`);
    await page.getByTestId('top-genres-card').waitFor();
    const cards = await page
      .getByTestId('top-lists')
      .locator(':scope > .card')
      .evaluateAll((elements) =>
        elements.map((element) => element.getBoundingClientRect().toJSON() as DOMRect),
      );
    const rows = new Map<number, DOMRect[]>();
    for (const box of cards) rows.set(Math.round(box.top), [...(rows.get(Math.round(box.top)) ?? []), box]);
    const grid = (await page.getByTestId('top-lists').boundingBox())!;
    // Every row is full: several cards side by side, or one card across the whole width.
    for (const row of rows.values())
      if (row.length === 1) expect(Math.abs(row[0]!.width - grid.width)).toBeLessThan(2);
    expect(rows.size).toBe(2);
    const found = await noViolations(page, 'stats-top-lists', async () => {
      await page.goto(`${t.url}/admin#stats?range=all`);
      await page.getByTestId('top-genres-card').waitFor();
      await eventually(() => page.locator('.placeholder').count(), 0);
    });
    expect(found).toEqual([]);
  });
});

describe('The artwork grid', () => {
  it('holds each picture’s square with a tinted box until it loads', async () => {
    const { page } = browser;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route) => {
      await gate;
      // The view may have gone (and the request with it) by the time the gate opens.
      await route.continue().catch(() => undefined);
    };
    await page.route(/\/api\/art\/(?!album)/, hold);
    try {
      await openSection(page, 'artwork');
      await page.getByTestId('art-album').first().click();
      const frame = page.getByTestId('art-enlarge').first();
      await frame.waitFor();
      const before = (await frame.boundingBox())!;
      expect(before.width).toBeGreaterThan(40);
      expect(Math.abs(before.height - before.width)).toBeLessThan(2);
      const tint = await frame.evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(tint).not.toBe('rgba(0, 0, 0, 0)');
      await screenshot(page, 'artwork-loading');
      release();
      await eventually(
        () => frame.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth > 0),
        true,
      );
      const after = (await frame.boundingBox())!;
      expect(after.height).toBeCloseTo(before.height, 0);
      expect(after.width).toBeCloseTo(before.width, 0);
    } finally {
      release();
      await page.unroute(/\/api\/art\/(?!album)/, hold);
    }
    const found = await noViolations(page, 'artwork-grid', async () => {
      await eventually(
        () =>
          page
            .getByTestId('art-enlarge')
            .locator('img')
            .evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).complete)),
        true,
      );
    });
    expect(found).toEqual([]);
  });
});
