import { describe, expect, it } from 'vitest';
import { createAccountWith, createInvite } from '../support/invites.js';
import { ADMIN_PASSWORD, ADMIN_USER } from '../support/server.js';
import {
  eventually,
  expectDetailShown,
  openSection,
  screenshot,
  texts,
  useServerAndBrowser,
} from './browser.js';

/**
 * The settings page in Chromium against the real server: signing in, the users section, and
 * invites from the page's code to a device's account over HTTP. Every refused request must show
 * the server's `detail`.
 */
const { t, browser, signIn } = useServerAndBrowser();

const userRow = (username: string) =>
  browser.page.getByTestId('user-row').and(browser.page.locator(`[data-username="${username}"]`));

describe('Sign in', () => {
  it("shows the server's reason for a wrong password, then signs in as the admin", async () => {
    const { page } = browser;
    await page.goto(`${t.url}/admin`);
    await page.getByTestId('signin-form').waitFor();
    await screenshot(page, 'signin');
    await page.getByTestId('signin-username').fill(ADMIN_USER);
    await page.getByTestId('signin-password').fill('not the password');
    const problem = await expectDetailShown(page, '/auth/login', () =>
      page.getByTestId('signin-submit').click(),
    );
    expect(problem).toMatchObject({ status: 401, code: 'invalid_credentials' });
    expect(await page.getByTestId('whoami').count()).toBe(0);

    await page.getByTestId('signin-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('signin-submit').click();
    await eventually(() => page.getByTestId('whoami').textContent(), 'admin · Admin');
    expect(await texts(page.getByTestId('tabs').locator('.tab'))).toEqual([
      'Statistics',
      'Listen',
      'History',
      'Invites',
      'Artwork',
      'Library',
      'Users',
      'Apps',
      'Updates',
      'Account',
    ]);
    // The password travelled in the body, never in the address.
    expect(t.logs.some((line) => line.includes(ADMIN_PASSWORD))).toBe(false);
  });

  it('keeps the session across a reload, and signs out', async () => {
    const { page } = browser;
    await page.reload();
    await page.getByTestId('whoami').waitFor();
    await page.getByTestId('signout').click();
    await page.getByTestId('signin-form').waitFor();
    await signIn();
  });
});

describe('Users', () => {
  it('lists the users with role and last sign-in, and creates one', async () => {
    const { page } = browser;
    const view = await openSection(page, 'users');
    await userRow(ADMIN_USER).waitFor();
    expect(await texts(userRow(ADMIN_USER).locator('td').first())).toEqual(['admin (you)']);
    expect(await userRow(ADMIN_USER).getByTestId('user-role').inputValue()).toBe('Admin');
    expect(await texts(userRow(ADMIN_USER).locator('td').nth(2))).not.toEqual(['never']);

    await view.getByTestId('user-new-username').fill('ada');
    await view.getByTestId('user-new-password').fill('ada-long-password');
    await view.getByTestId('user-new-role').selectOption('Pass');
    await view.getByTestId('user-create').click();
    await userRow('ada').waitFor();
    expect(await userRow('ada').getByTestId('user-role').inputValue()).toBe('Pass');
    // Statistics are shared unless the person turns it off.
    expect((await texts(userRow('ada').locator('td'))).slice(2, 5)).toEqual(['never', 'never', 'shared']);
    await page.getByTestId('info-message').filter({ hasText: 'Created Pass “ada”.' }).waitFor();
    await screenshot(page, 'users');

    // The same name again is refused, and the page says why.
    await view.getByTestId('user-new-username').fill('ADA');
    await view.getByTestId('user-new-password').fill('another-long-password');
    const problem = await expectDetailShown(page, '/api/users/create', () =>
      view.getByTestId('user-create').click(),
    );
    expect(problem).toMatchObject({ status: 409, code: 'username_taken' });
    expect(await page.getByTestId('user-row').count()).toBe(2);
  });

  it('lets the admin make their own statistics private, and public again', async () => {
    const { page } = browser;
    const view = await openSection(page, 'account');
    await eventually(() => view.getByTestId('public-stats-state').textContent(), 'Now: public');
    await view.getByTestId('public-stats').uncheck();
    await eventually(() => view.getByTestId('public-stats-state').textContent(), 'Now: private');
    await openSection(page, 'users');
    await eventually(() => texts(userRow(ADMIN_USER).locator('td').nth(4)), ['private']);
    const again = await openSection(page, 'account');
    await eventually(() => again.getByTestId('public-stats-state').textContent(), 'Now: private');
    await again.getByTestId('public-stats').check();
    await eventually(() => again.getByTestId('public-stats-state').textContent(), 'Now: public');
  });
});

describe('Invites', () => {
  it('creates a code, shows it with a countdown and QR code, and a device redeems it over HTTP', async () => {
    const { page } = browser;
    const view = await openSection(page, 'invites');
    await view.getByTestId('invite-none').waitFor();
    await view.getByTestId('invite-create').click();
    const code = (await view.getByTestId('invite-code').textContent())!;
    expect(code).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{4}$/);
    await eventually(
      async () =>
        /^Expires in (10:00|9:[0-5]\d)$/.test((await view.getByTestId('invite-countdown').textContent())!),
      true,
    );
    // A plain http address a phone camera opens (the page), with the code after `#`.
    expect(await view.getByTestId('invite-link').textContent()).toBe(`${t.url}/admin/#invite?code=${code}`);
    await eventually(
      () => view.getByTestId('invite-qr').evaluate((img) => (img as HTMLImageElement).naturalWidth > 0),
      true,
    );
    expect(await texts(view.getByTestId('invite-row').locator('.invite-row-code'))).toEqual([code]);
    await screenshot(page, 'invites');

    // A household device exchanges the code it read, then makes its own account once.
    const exchange = await t.call(`/auth/code-authenticate?code=${code}`);
    expect(exchange.status).toBe(200);
    const { token, role } = (await exchange.json()) as { token: string; role: string };
    expect(role).toBe('Server');
    const created = await createAccountWith(t, token, {
      username: 'kitchen-speaker',
      password: 'speaker-password',
    });
    expect(created.status).toBe(201);

    // The used code is no longer active, and the device's account is listed.
    await openSection(page, 'users');
    await userRow('kitchen-speaker').waitFor();
    expect(await userRow('kitchen-speaker').getByTestId('user-role').inputValue()).toBe('User');
    const again = await openSection(page, 'invites');
    await again.getByTestId('invite-none').waitFor();
  });

  it("shows the server's reason when a sixth code is refused, and drops codes as they expire", async () => {
    const { page } = browser;
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await createInvite(t));
    const view = await openSection(page, 'invites');
    await eventually(() => view.getByTestId('invite-row').count(), 4);
    await view.getByTestId('invite-create').click();
    const code = (await view.getByTestId('invite-code').textContent())!;
    await eventually(() => view.getByTestId('invite-row').count(), 5);
    expect(await view.getByTestId('invite-row').first().getAttribute('data-code')).toBe(code);

    const problem = await expectDetailShown(page, '/auth/invite', () =>
      view.getByTestId('invite-create').click(),
    );
    expect(problem).toMatchObject({ status: 408, code: 'too_many_invites' });
    // The refused request did not replace the code on show.
    expect(await view.getByTestId('invite-code').textContent()).toBe(code);

    // Ten minutes later (in the page's clock) every code has expired and disappears.
    const last = Math.max(...made.map((invite) => Date.parse(invite.expiresAt)));
    await page.clock.setFixedTime(last + 60_000);
    await view.getByTestId('invite-expired').waitFor();
    await view.getByTestId('invite-none').waitFor();
    expect(await view.getByTestId('invite-row').count()).toBe(0);
    await screenshot(page, 'invites-expired');
  });
});
