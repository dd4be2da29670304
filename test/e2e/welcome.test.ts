import { describe, expect, it } from 'vitest';
import { makeUser } from '../factories/users.js';
import { postJson } from '../support/server.js';
import { tempDirPerFile } from '../support/temp-dir.js';
import { axeViolations } from './axe.js';
import { eventually, screenshot, signOut, useServerAndBrowser } from './browser.js';

/**
 * A fresh Melon greets its Admin with what it found and the first steps, each ticked from what the
 * server knows; members never see it; once closed it stays closed.
 */
const parent = tempDirPerFile('melon-e2e-welcome-');
let unplugged: string;
const { t, browser, signIn } = useServerAndBrowser(() => {
  unplugged = parent.path('unplugged-disk', 'Music');
  return { config: { libraryDirs: [unplugged] } };
});

const step = (key: string) => browser.page.getByTestId(`welcome-step-${key}`).getAttribute('data-done');

describe('The welcome card', () => {
  it('says the music folder is missing and how to set it, and ticks each step as it is done', async () => {
    const { page } = browser;
    await signIn();
    const card = page.getByTestId('welcome');
    await card.waitFor();
    const library = (await page.getByTestId('welcome-library').textContent())!;
    expect(library).toContain(unplugged);
    expect(library).toContain('MELON_LIBRARY');
    expect(await step('connectPhone')).toBe('false');
    expect(await step('inviteFamily')).toBe('false');
    // The test server's Admin password was configured, not generated.
    expect(await step('changePassword')).toBe('true');
    expect(await card.getByRole('link', { name: 'Apps' }).getAttribute('href')).toBe('#apps');

    const found: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        found.push(
          ...(await axeViolations(page)).map((v) => `${scheme} ${width}: ${v.id} ${v.nodes.join(' ')}`),
        );
        await screenshot(page, `welcome-${width}-${scheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1200, height: 900 });
    expect(found).toEqual([]);

    await postJson(t, '/api/users/api-keys/create', { name: "Alex's phone" }, t.adminToken);
    await t.call('/auth/invite', { token: t.adminToken });
    await page.reload();
    await card.waitFor();
    await eventually(() => step('connectPhone'), 'true');
    expect(await step('inviteFamily')).toBe('true');
  });

  it('has a skip link that takes the keyboard past the section links to the view', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('skip-link');
    await screenshot(page, 'skip-link-390');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect(new URL(page.url()).hash).not.toBe('#view');
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  it('is never shown to a member, who cannot act on it', async () => {
    const { page } = browser;
    const member = await makeUser(t, { role: 'User', username: 'robin', password: 'robin-password' });
    await signOut(page);
    await signIn({ username: member.username, password: 'robin-password' });
    await page.getByTestId('view-heading').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('welcome').count()).toBe(0);
    await signOut(page);
  });

  it('stays closed once the Admin closes it', async () => {
    const { page } = browser;
    await signIn();
    await page.getByTestId('welcome-dismiss').click();
    await eventually(() => page.getByTestId('welcome').count(), 0);
    await page.reload();
    await page.getByTestId('view-heading').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('welcome').count()).toBe(0);
  });
});
