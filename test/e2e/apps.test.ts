import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { launchBrowser, openSection, screenshot, signIn, texts, type Browser } from './browser.js';

/**
 * The Apps view: a household member makes an app key for a music app, sees it once with the
 * server's address and a QR code, the key works as them, and revoking it stops it at once.
 */
let t: TestServer;
let browser: Browser;
let member: TestUser;

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  member = await makeUser(t, { username: 'robin' });
});

afterAll(async () => {
  await Promise.all([browser?.close(), t?.stop()]);
});

afterEach(() => {
  expect(browser.pageErrors).toEqual([]);
});

const check = (key: string) => t.call('/auth/check', { token: key });

describe('Apps view', () => {
  it('makes a key shown once, lists it, and revokes it so it stops working', async () => {
    const { page } = browser;
    await signIn(page, t.url, member.username, member.password);
    const view = await openSection(page, 'apps');
    await view.getByTestId('app-keys-empty').waitFor();

    await view.getByTestId('app-key-name').fill('Kitchen speaker');
    await view.getByTestId('app-key-create').click();
    const value = view.getByTestId('app-key-value');
    await value.waitFor();
    const key = await value.inputValue();
    expect(key).toMatch(/^melon_[A-Za-z0-9_-]{43}$/);
    expect(await view.getByTestId('app-key-server').textContent()).toContain(t.url);
    expect(await view.getByTestId('app-key-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await texts(view.locator('.app-key-name'))).toEqual(['Kitchen speaker']);
    await screenshot(page, 'apps-key-made');

    const asKey = await check(key);
    expect(asKey.status).toBe(200);
    expect(await asKey.json()).toMatchObject({ username: 'robin', role: 'User' });
    // The list never shows the key again.
    expect(await view.getByTestId('app-key-list').textContent()).not.toContain(key);

    await view.getByTestId('app-key-revoke').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await view.getByTestId('app-keys-empty').waitFor();
    expect((await check(key)).status).toBe(401);
  });
});
