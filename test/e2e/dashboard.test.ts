import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { rangeQuery, type RangeKind } from '../../renderer/format.js';
import { fakeScanner } from '../factories/library.js';
import { createAccountWith } from '../support/invites.js';
import { loginToken } from '../support/server.js';
import { axeViolations, type AxeViolation } from './axe.js';
import {
  eventually,
  openSection,
  screenshot,
  signOut,
  texts,
  useServerAndBrowser,
  inEveryLook,
} from './browser.js';
import { library, seedHousehold, type Household } from './dashboard-seed.js';

/**
 * The settings page as a household dashboard, in Chromium against the real server with a few
 * hundred plays over four people, several devices and fourteen months: charts that add up to their
 * headline, everyone's view, browsing each other, people, invites, and axe-core on every view.
 */
const { t, browser, signIn } = useServerAndBrowser({ scanner: fakeScanner(library) });
let house: Household;

beforeAll(async () => {
  house = await seedHousehold(t);
});

const headline = async (page: Page) => Number(await page.getByTestId('stats-plays').textContent());
const chartTotal = async (page: Page) =>
  Number(await page.getByTestId('chart-activity').getAttribute('data-total'));
const tableSum = async (page: Page) =>
  (await texts(page.getByTestId('chart-activity-plays'))).reduce((sum, text) => sum + Number(text), 0);

/** What the API counts for a range, computed as the page does (same time zone, same "now" day). */
async function apiPlays(userId: string, token: string, range: RangeKind, device?: string): Promise<number> {
  const { gtDateTime } = rangeQuery(range, new Date());
  const query = new URLSearchParams({ userId });
  if (gtDateTime) query.set('gtDateTime', gtDateTime);
  if (device) query.set('device', device);
  const response = await house.t.call(`/api/stats/listening-time?${query.toString()}`, { token });
  return ((await response.json()) as { plays: number }).plays;
}

async function idOf(username: string): Promise<string> {
  const users = (await (await house.t.call('/api/users', { token: house.t.adminToken })).json()) as Array<{
    id: string;
    username: string;
  }>;
  return users.find((user) => user.username === username)!.id;
}

/** Waits until the statistics show a settled selection (nothing loading). */
async function settled(page: Page): Promise<void> {
  await page.getByTestId('stats-content').and(page.locator(':not([aria-busy])')).waitFor();
  await page.getByTestId('stats-plays').waitFor();
}

describe('Statistics that add up', () => {
  it('charts exactly the plays of the headline for every range, all time from the first play', async () => {
    const { page } = browser;
    await signIn();
    const adminId = await idOf('admin');
    for (const range of ['week', 'month', 'year', 'all'] as const) {
      await page.getByTestId(`stats-range-${range}`).click();
      await eventually(() => page.getByTestId(`stats-range-${range}`).getAttribute('aria-pressed'), 'true');
      const expected = await apiPlays(adminId, house.t.adminToken, range);
      await eventually(() => headline(page), expected);
      await settled(page);
      expect(await chartTotal(page)).toBe(expected);
      expect(await tableSum(page)).toBe(expected);
      await screenshot(page, `stats-${range}`);
    }
    expect(await headline(page)).toBe(house.plays.admin);
    // Fourteen months: weeks, not 420 daily spikes; a month: days.
    expect(await page.getByTestId('chart-activity').getAttribute('data-step')).toBe('week');
    await page.getByTestId('stats-range-month').click();
    await eventually(() => page.getByTestId('chart-activity').getAttribute('data-step'), 'day');
  });

  it('offers the devices played on, filters by one, and keeps the selection across a reload', async () => {
    const { page } = browser;
    const robinId = await idOf('robin');
    await page.getByTestId('stats-user').selectOption(robinId);
    await page.getByTestId('stats-range-all').click();
    await eventually(() => headline(page), house.plays.robin);
    const options = await texts(page.getByTestId('stats-device').locator('option'));
    expect(options[0]).toBe('All devices');
    // Names only: an all-time count beside a month's figures read as the month's.
    expect(options).toContain('Kitchen');
    expect(options).toContain('Unknown device');
    await page.getByTestId('stats-device').selectOption('Kitchen');
    const kitchen = await apiPlays(robinId, house.t.adminToken, 'all', 'Kitchen');
    await eventually(() => headline(page), kitchen);
    await settled(page);
    expect(await chartTotal(page)).toBe(kitchen);
    expect(page.url()).toContain(`user=${robinId}`);
    await page.reload();
    await eventually(() => page.getByTestId('stats-device').inputValue(), 'Kitchen');
    expect(await page.getByTestId('stats-range-all').getAttribute('aria-pressed')).toBe('true');
    await eventually(() => headline(page), kitchen);
    // Back returns to the previous selection.
    await page.goBack();
    await eventually(() => page.getByTestId('stats-device').inputValue(), '');
    await eventually(() => headline(page), house.plays.robin);
  });

  it("shows everyone: the household's totals are the sum of the people", async () => {
    const { page } = browser;
    await page.getByTestId('stats-user').selectOption('everyone');
    await page.getByTestId('stats-range-all').click();
    const everyone = Object.values(house.plays).reduce((a, b) => a + b, 0);
    await eventually(() => headline(page), everyone);
    await settled(page);
    expect(await chartTotal(page)).toBe(everyone);
    const people = await texts(page.getByTestId('household-people-item').locator('.ranked-value'));
    expect(people.map((text) => Number(/(\d+) plays?$/.exec(text)![1])).reduce((a, b) => a + b, 0)).toBe(
      everyone,
    );
    expect(await page.getByTestId('stats-top-person').textContent()).toBe('robin');
    await page.getByTestId('stats-heatmap').waitFor();
    const cells = await page
      .getByTestId('stats-heatmap')
      .locator('td[data-value]')
      .evaluateAll((tds) => tds.reduce((sum, td) => sum + Number(td.getAttribute('data-value')), 0));
    expect(cells).toBe(everyone);
    await screenshot(page, 'stats-everyone');
  });
});

describe('A household member browses the others', () => {
  it("lets a User read a member's statistics, and refuses a private member's with a clear message", async () => {
    const { page } = browser;
    await signOut(page);
    await signIn(house.robin);
    // The Person menu is filled when the members arrive, after the view is drawn.
    await settled(page);
    const options = await texts(page.getByTestId('stats-user').locator('option'));
    expect(options).toEqual(expect.arrayContaining(['Everyone', 'robin (you)', 'kim', 'sam (private)']));
    await page.getByTestId('stats-range-all').click();
    await page.getByTestId('stats-user').selectOption(house.kim.id);
    await eventually(() => headline(page), house.plays.kim);
    await eventually(() => page.getByTestId('stats-subtitle').textContent(), 'kim’s listening.');

    await page.goto(`${house.t.url}/admin#stats?user=${house.sam.id}&range=all`);
    await eventually(
      () => page.getByTestId('stats-error-text').textContent(),
      'sam keeps their listening statistics private.',
    );
    await screenshot(page, 'stats-private-refused');

    await page.getByTestId('stats-user').selectOption('everyone');
    const visible = house.plays.admin! + house.plays.robin! + house.plays.kim!;
    await eventually(() => headline(page), visible);
    await eventually(
      () => page.getByTestId('household-private').textContent(),
      'sam keeps their statistics private.',
    );
  });

  it('opens the wall display (Pass) on its wall, and everyone one link away', async () => {
    const { page } = browser;
    await signOut(page);
    await signIn(house.wall);
    await page.getByTestId('wall-today-plays').waitFor();
    await page.getByRole('link', { name: 'All statistics' }).click();
    await eventually(() => page.getByTestId('stats-user').inputValue(), 'everyone');
    await page.getByTestId('stats-plays').waitFor();
    // History holds the household's year in review for a wall display, without imports.
    expect(await texts(page.getByTestId('tabs').locator('.tab'))).toEqual([
      'Statistics',
      'Listen',
      'History',
      'Apps',
      'Account',
    ]);
    await screenshot(page, 'stats-wall-display');
    await signOut(page);
  });
});

describe('People', () => {
  const row = (name: string) =>
    browser.page.getByTestId('user-row').and(browser.page.locator(`[data-username="${name}"]`));

  it('shows last play and devices, changes a role, resets a password once, deletes, and explains the last-Admin guard', async () => {
    const { page } = browser;
    await signIn();
    await openSection(page, 'users');
    await row('robin').waitFor();
    expect((await row('robin').locator('td').nth(3).textContent())!.trim()).not.toBe('never');
    await eventually(
      async () =>
        /Kitchen \(\d+ plays?\)/.test((await row('robin').getByTestId('user-devices').textContent())!),
      true,
    );
    await screenshot(page, 'users');

    // Role: robin becomes a Pass, after confirming.
    await row('robin').getByTestId('user-role').selectOption('Pass');
    await page.getByTestId('confirm-ok').click();
    await eventually(() => page.getByTestId('users-status-ok').textContent(), 'robin is now a Pass.');
    const check = await house.t.call('/auth/check', {
      token: await loginToken(house.t.call, 'robin', house.robin.password),
    });
    expect(await check.json()).toMatchObject({ role: 'Pass' });
    await row('robin').getByTestId('user-role').selectOption('User');
    await page.getByTestId('confirm-ok').click();
    await eventually(() => row('robin').getByTestId('user-role').inputValue(), 'User');
    // The list has reloaded (a reload replaces the rows, and with them a dialog's trigger).
    await eventually(() => page.getByTestId('users-status-ok').textContent(), 'robin is now a User.');
    await page.getByTestId('users-list').and(page.locator(':not([aria-busy])')).waitFor();

    // Reset: the new password is shown once and works.
    await row('kim').getByTestId('user-reset').click();
    await page.getByTestId('confirm-ok').click();
    const password = (await page.getByTestId('reset-password-value').textContent())!;
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    await screenshot(page, 'users-reset-password');
    await page.getByTestId('notice-ok').click();
    await expect(loginToken(house.t.call, 'kim', password)).resolves.toBeTruthy();
    house.kim.password = password;
    // Focus went back to the button that opened the dialog.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('user-reset');

    // The last Admin keeps the role, with the reason in words.
    await row('admin').getByTestId('user-role').selectOption('User');
    await page.getByTestId('confirm-ok').click();
    await eventually(
      () => page.getByTestId('users-status-error-text').textContent(),
      'Melon needs at least one Admin. Make someone else an Admin first.',
    );
    expect(await row('admin').getByTestId('user-role').inputValue()).toBe('Admin');
    // Nor can the only Admin be deleted: its Delete is off, and the server refuses it too.
    expect(await row('admin').getByTestId('user-delete').isDisabled()).toBe(true);
    expect(await row('kim').getByTestId('user-delete').isDisabled()).toBe(false);

    // Create (validated inline first), then delete.
    await page.getByTestId('user-new-username').fill('guest');
    await page.getByTestId('user-new-password').fill('short');
    await page.getByTestId('user-create').click();
    await eventually(
      () => page.getByTestId('user-new-password-error').textContent(),
      'At least 8 characters.',
    );
    await page.getByTestId('user-new-password').fill('guest-password');
    await page.getByTestId('user-create').click();
    await row('guest').waitFor();
    await row('guest').getByTestId('user-delete').click();
    await page.getByTestId('confirm-ok').click();
    await eventually(() => row('guest').count(), 0);
  });
});

describe('Invites that close the loop', () => {
  it('says which account a code made, of the role the Admin picked, and revokes a waiting code', async () => {
    const { page } = browser;
    const view = await openSection(page, 'invites');
    await view.getByTestId('invite-none').waitFor();
    await view.getByLabel('The new account joins as').selectOption('Pass');
    await view.getByTestId('invite-create').click();
    const code = (await view.getByTestId('invite-code').textContent())!;
    const { token } = (await (await house.t.call(`/auth/code-authenticate?code=${code}`)).json()) as {
      token: string;
    };
    await eventually(() => view.getByTestId('invite-used').count(), 1);
    const tablet = { username: 'tablet', password: 'tablet-password', role: 'Admin' };
    expect((await createAccountWith(house.t, token, tablet)).status).toBe(201);
    await eventually(() => view.getByTestId('invite-joined').textContent(), `✓ ${code} joined as tablet`);
    await eventually(
      () => view.getByTestId('invite-joined-row').textContent(),
      `✓ ${code} joined as tablet (Pass)`,
    );
    await eventually(() => view.getByTestId('invite-row').count(), 0);
    await screenshot(page, 'invites-joined');

    await view.getByTestId('invite-create').click();
    const second = (await view.getByTestId('invite-code').textContent())!;
    await eventually(() => texts(view.getByTestId('invite-row').locator('.invite-row-code')), [second]);
    await view.getByTestId('invite-revoke').click();
    await page.getByTestId('confirm-ok').click();
    await eventually(() => view.getByTestId('invite-revoked').textContent(), `${second} was revoked.`);
    await view.getByTestId('invite-none').waitFor();
    expect((await house.t.call(`/auth/code-authenticate?code=${second}`)).status).toBe(401);
  });
});

describe('Accessibility (axe-core, every impact)', () => {
  it('has no violations on any view at 390 px and 1440 px, light and dark', async () => {
    const { page } = browser;
    await page.goto(`${house.t.url}/admin`);
    await page.locator('[data-testid="whoami"], [data-testid="signin-form"]').first().waitFor();
    if (await page.getByTestId('signin-form').count()) await signIn();
    const found: Array<AxeViolation & { where: string }> = [];
    /** A section, opened once the first of its `ready` elements shows. */
    const shows = (name: string, ready: string): [string, () => Promise<void>] => [
      name,
      async () => {
        const view = await openSection(page, name);
        await view.getByTestId(ready).first().waitFor();
      },
    ];
    const views: Array<[string, () => Promise<void>]> = [
      [
        'stats',
        async () => {
          await page.goto(`${house.t.url}/admin#stats?range=all`);
          await settled(page);
        },
      ],
      [
        'stats-everyone',
        async () => {
          await page.goto(`${house.t.url}/admin#stats?user=everyone&range=year`);
          await settled(page);
        },
      ],
      shows('history', 'review-year'),
      shows('invites', 'invite-limit'),
      shows('artwork', 'art-album-grid'),
      [
        'library',
        async () => {
          const view = await openSection(page, 'library');
          await view.getByTestId('library-scan-state').waitFor();
          await view.getByTestId('library-folders').and(page.locator(':not([aria-busy])')).waitFor();
        },
      ],
      shows('users', 'user-row'),
      [
        'apps',
        async () => {
          const view = await openSection(page, 'apps');
          await view.getByTestId('app-keys').and(page.locator(':not([aria-busy])')).waitFor();
        },
      ],
      [
        'updates',
        async () => {
          const view = await openSection(page, 'updates');
          // No release source answers here: the view settles on its calm offline line.
          await view.getByTestId('update-message').getByText("Couldn't check just now").waitFor();
        },
      ],
      [
        'account',
        async () => {
          await openSection(page, 'account');
          await eventually(() => page.getByTestId('public-stats-state').textContent(), 'Now: public');
        },
      ],
    ];
    await inEveryLook(page, async ({ scheme, width }) => {
      for (const [name, open] of views) {
        await open();
        // Nothing is loading any more; settle any finite transition before axe looks at colours.
        await eventually(() => page.locator('.placeholder').count(), 0);
        await page.evaluate(() =>
          document
            .getAnimations()
            .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
            .forEach((animation) => animation.finish()),
        );
        const where = `${name} ${width}px ${scheme}`;
        found.push(...(await axeViolations(page)).map((violation) => ({ ...violation, where })));
        await screenshot(page, `a11y-${name}-${width}-${scheme}`);
        // Nothing scrolls sideways.
        const wide = await page.evaluate(() =>
          document.documentElement.scrollWidth <= window.innerWidth
            ? []
            : Array.from(document.querySelectorAll('body *'))
                .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
                .slice(0, 5)
                .map(
                  (element) =>
                    `${element.tagName}.${element.className} ${element.getBoundingClientRect().right}`,
                ),
        );
        expect(wide, where).toEqual([]);
      }
    });
    await signOut(page);
    await inEveryLook(page, async ({ scheme, width }) => {
      const where = `signin ${width}px ${scheme}`;
      found.push(...(await axeViolations(page)).map((violation) => ({ ...violation, where })));
      await screenshot(page, `a11y-signin-${width}-${scheme}`);
    });
    expect(found).toEqual([]);
  }, 240_000);
});
