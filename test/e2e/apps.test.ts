import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { axeViolations } from './axe.js';
import {
  eventually,
  openSection,
  screenshot,
  signOut,
  texts,
  UI_TIMEOUT,
  useServerAndBrowser,
} from './browser.js';

/**
 * The Apps view: a household member connects a music app with three copyable fields (the server's
 * address, their username, an app password shown once), follows the steps for their app, sees which
 * app used each password and when, and revokes one so it stops at once.
 */
const { t, browser, signIn } = useServerAndBrowser();
let member: TestUser;

beforeAll(async () => {
  member = await makeUser(t, { username: 'robin' });
});

const check = (key: string) => t.call('/auth/check', { token: key });
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('Apps view', () => {
  it('gives a member the three fields an app needs; the app password signs in with a token, shows its app, and stops when revoked', async () => {
    const { page } = browser;
    await signIn(member);
    const view = await openSection(page, 'apps');
    await view.getByTestId('app-keys-empty').waitFor();

    // The server started on 127.0.0.1: that is its "on your network" address here.
    await eventually(() => view.getByTestId('apps-address').inputValue(), t.url);
    expect(await view.getByTestId('apps-username').inputValue()).toBe('robin');
    await expect
      .poll(() => view.getByTestId('apps-qr').getAttribute('src'), { timeout: UI_TIMEOUT })
      .toMatch(/^data:image\/png;base64,/);
    expect(await view.getByTestId('apps-qr-link').textContent()).toContain(`${t.url}/admin/#apps`);
    expect(await texts(view.getByTestId('app-steps').locator('dt'))).toEqual([
      'Symfonium (Android)',
      'DSub (Android)',
      'Ultrasonic (Android)',
      'Substreamer (Android, iPhone)',
      'Tempo (Android)',
      'Feishin (Windows, macOS, Linux)',
      'play:Sub (iPhone, iPad)',
      'Amperfy (iPhone, iPad, Mac)',
    ]);

    await view.getByTestId('app-key-name').fill('DSub on my phone');
    await view.getByTestId('app-key-create').click();
    await view.getByTestId('app-key-made').waitFor();
    const key = await view.getByTestId('app-key-value').inputValue();
    expect(key).toMatch(/^melon_[A-Za-z0-9_-]{43}$/);
    // The list of passwords is fetched again after the new one is shown: wait for it, not the old list.
    await eventually(() => texts(view.locator('.app-key-name')), ['DSub on my phone']);
    expect(await view.getByTestId('app-key-used').textContent()).toContain('not used yet');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'apps-key-made');

    // An app signs in as DSub does: a salted token of the app password.
    const salt = 'f00d';
    const pinged = await fetch(
      `${t.url}/rest/ping.view?v=1.16.1&c=DSub&f=json&u=robin&t=${md5(key + salt)}&s=${salt}`,
    );
    expect(
      ((await pinged.json()) as { 'subsonic-response': { status: string } })['subsonic-response'].status,
    ).toBe('ok');
    const asKey = await check(key);
    expect(await asKey.json()).toMatchObject({ username: 'robin', role: 'User' });

    await page.reload();
    const again = await openSection(page, 'apps');
    await expect
      .poll(() => again.getByTestId('app-key-used').textContent(), { timeout: UI_TIMEOUT })
      .toMatch(/last used just now by DSub$/);
    // The list never shows the app password again, nor does the field after a reload.
    expect(await again.getByTestId('app-key-list').textContent()).not.toContain(key);
    expect(await again.getByTestId('app-key-value').inputValue()).toBe('');

    await again.getByTestId('app-key-revoke').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await again.getByTestId('app-keys-empty').waitFor();
    expect((await check(key)).status).toBe(401);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('lets an Admin make an app password for a member from Users, which acts as that member', async () => {
    const { page } = browser;
    const pass = await makeUser(t, { role: 'Pass', username: 'hall-display' });
    await signOut(page);
    await signIn();
    const view = await openSection(page, 'users');
    const row = view.locator('[data-testid="user-row"][data-username="hall-display"]');
    await row.getByTestId('user-app-password').click();
    const dialog = page.getByRole('dialog');
    const key = (await dialog.getByTestId('user-app-password-value').textContent())!;
    expect(key).toMatch(/^melon_/);
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByTestId('notice-ok').click();
    const checked = await check(key);
    expect(await checked.json()).toMatchObject({ userId: pass.id, username: 'hall-display', role: 'Pass' });
  });
});
