import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '../../server/config.js';
import { RELEASE_CACHE_MS } from '../../server/services/updates/release-source.js';
import { FakeReleaseServer, installerNames, OWNER, REPO } from '../support/fake-release-server.js';
import { startTestServer } from '../support/server.js';
import { eventually, openSection, screenshot, texts, useServerAndBrowser } from './browser.js';
import { axeViolations } from './axe.js';
import { GatedProxy } from './gated-proxy.js';
import { tempDirPerFile } from '../support/temp-dir.js';

/**
 * The Updates section in Chromium: checking against a fake GitHub release server, reading the
 * rendered release notes, and installing with the real headless installer (download, SHA-512
 * check) whose last step, the installer program, is a script that records its arguments. The
 * server's `exit` is a no-op in tests, so this process is not ended by the update.
 */
const [major, minor] = APP_VERSION.split('.').map(Number);
const NEXT = `${major}.${(minor ?? 0) + 1}.0`;
const NOTES = [
  `## What's new in ${NEXT}`,
  '',
  '- **Faster** library scans',
  '- Invite codes come with a [QR code](https://example.com/qr)',
  '',
  '<script>window.__pwned = true</script>',
  '<img src="x" onerror="window.__pwned = true">',
].join('\n');

let fake: FakeReleaseServer;
let proxy: GatedProxy;
let argvFile: string;
let env: NodeJS.ProcessEnv;
const dir = tempDirPerFile('melon-e2e-update-');
// Registered before the server, so they close after it (after-hooks run in reverse).
afterAll(async () => {
  await proxy?.close();
  await fake?.close();
});
const { t, browser, signIn } = useServerAndBrowser(async () => {
  argvFile = dir.path('installer-argv.json');
  const installer = dir.path('fake-installer.mjs');
  await writeFile(
    installer,
    `import { writeFileSync } from 'node:fs';\n` +
      `writeFileSync(${JSON.stringify(argvFile)}, JSON.stringify(process.argv.slice(2)));\n`,
  );
  fake = await FakeReleaseServer.start();
  proxy = await GatedProxy.start(fake.url);
  env = {
    MELON_RELEASES_URL: proxy.url,
    MELON_RELEASES_REPO: `${OWNER}/${REPO}`,
    MELON_INSTALL_COMMAND: `"${process.execPath}" "${installer}"`,
  };
  return { env };
});

beforeAll(async () => {
  // Signing in checks for an update once (the badge); wait for that answer, so that no check of
  // the tests below joins it while it is in flight.
  const signInCheck = browser.page.waitForResponse((response) =>
    response.url().includes('/api/settings/check-for-updates'),
  );
  await signIn();
  await signInCheck;
});

/** Opens Updates (which shows what the server knows) or, when it is open, presses "Check now". */
async function check(): Promise<void> {
  const { page } = browser;
  if (await page.getByTestId('view-updates').count()) await page.getByTestId('update-check').click();
  else await openSection(page, 'updates');
}

const message = () => browser.page.getByTestId('update-message').textContent();

/** Runs `action`, which must make `path` fail, and returns the problem the server sent. */
async function failing(path: string, action: () => Promise<void>) {
  const failed = browser.page.waitForResponse(
    (response) => new URL(response.url()).pathname === path && response.status() >= 400,
  );
  await action();
  return (await (await failed).json()) as { status: number; code: string; detail: string };
}

describe('Updates', () => {
  it('offline, says so in one calm line, asks again only when an Admin says so, then up to date', async () => {
    const { page } = browser;
    fake.mode = 'error500';
    // Signing in asked once already (the badge); that answer is kept for a day.
    t.clock.advance(RELEASE_CACHE_MS + 1000);
    const before = fake.apiCount();
    const problem = await failing('/api/settings/check-for-updates', check);
    expect(problem).toMatchObject({ status: 400, code: 'update_check_failed' });
    await eventually(message, "Couldn't check just now; Melon will try again tomorrow.");
    expect(await page.getByTestId('update-check-error').count()).toBe(0);
    expect(await page.locator('[data-testid="view-updates"] button:visible').count()).toBe(1);
    await eventually(() => page.getByTestId('update-running').textContent(), `Running Melon ${APP_VERSION}.`);
    await screenshot(page, 'updates-offline');
    const found: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        found.push(...(await axeViolations(page)).map((v) => `${scheme} ${width}: ${v.id}`));
        await screenshot(page, `updates-offline-${scheme}-${width}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1200, height: 900 });
    expect(found).toEqual([]);

    // Opening the section again and "Check now" within ten minutes reuse the failure.
    await openSection(page, 'library');
    await openSection(page, 'updates');
    await eventually(message, "Couldn't check just now; Melon will try again tomorrow.");
    await page.getByTestId('update-check').click();
    await eventually(message, "Couldn't check just now; Melon will try again tomorrow.");
    expect(fake.apiCount() - before).toBe(1);

    fake.mode = 'ok';
    fake.releases = [];
    t.clock.advance(10 * 60_000);
    await page.getByTestId('update-check').click();
    await eventually(message, `Melon is up to date (${APP_VERSION}).`);
    expect(fake.apiCount() - before).toBe(2);
    expect(await page.getByTestId('update-current').textContent()).toBe(APP_VERSION);
    expect(await page.getByTestId('update-where').textContent()).toContain(
      `${proxy.url}/repos/${OWNER}/${REPO}/releases at most once a day. Last checked`,
    );
    expect(await page.getByTestId('update-badge').count()).toBe(0);
  });

  it('lets the Admin turn the daily check off: a day later opening Updates asks nothing, until it is on', async () => {
    const { page } = browser;
    await openSection(page, 'updates');
    const daily = page.getByRole('switch', { name: 'Look for new versions once a day' });
    await eventually(() => daily.isChecked(), true);
    await daily.click();
    await eventually(
      () => page.getByTestId('update-where').textContent(),
      expect.stringMatching(/only when an admin asks/),
    );
    await screenshot(page, 'updates-daily-off');
    const before = fake.apiCount();
    t.clock.advance(RELEASE_CACHE_MS + 1000);
    await openSection(page, 'library');
    await openSection(page, 'updates');
    // Drawn once the server has answered the view's check, which is when it would have asked.
    await eventually(
      () => page.getByTestId('update-where').textContent(),
      expect.stringMatching(/only when an admin asks/),
    );
    await eventually(() => daily.isChecked(), false);
    expect(fake.apiCount()).toBe(before);
    await daily.click();
    await eventually(
      () => page.getByTestId('update-where').textContent(),
      expect.stringMatching(/at most once a day/),
    );
    // The view's check answered, not only asked: a check still in flight would be joined by the next
    // test's and give it this one's answer (no release yet).
    const answered = page.waitForResponse((response) =>
      response.url().includes('/api/settings/check-for-updates'),
    );
    await openSection(page, 'library');
    await openSection(page, 'updates');
    await answered;
    expect(fake.apiCount()).toBe(before + 1);
  });

  it('shows the current and latest version, the release notes from markdown, and a badge on Updates', async () => {
    const { page } = browser;
    fake.releases = [{ tag: `v${NEXT}`, body: NOTES }];
    t.clock.advance(RELEASE_CACHE_MS + 1000); // past the cached "no release" answer
    await check();
    await eventually(message, `Melon ${NEXT} is available.`);
    expect(await page.getByTestId('update-current').textContent()).toBe(APP_VERSION);
    expect(await page.getByTestId('update-latest').textContent()).toBe(NEXT);
    await page.getByTestId('update-badge').waitFor();

    const notes = page.getByTestId('update-notes');
    expect(await notes.locator('h2').textContent()).toBe(`What's new in ${NEXT}`);
    expect(await texts(notes.locator('li'))).toEqual([
      'Faster library scans',
      'Invite codes come with a QR code',
    ]);
    expect(await notes.locator('strong').textContent()).toBe('Faster');
    const link = notes.locator('a');
    expect(await link.getAttribute('href')).toBe('https://example.com/qr');
    expect(await link.getAttribute('target')).toBe('_blank');
    // Sanitised: no script, no event handler attributes, nothing ran; pictures have words.
    expect(await notes.locator('script').count()).toBe(0);
    expect(await notes.locator('[onerror]').count()).toBe(0);
    expect(await notes.locator('img').getAttribute('alt')).toBe('Picture from the release notes');
    expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await screenshot(page, 'updates-available');
  });

  it('asks before installing, and says why when the download does not match its checksum', async () => {
    const { page } = browser;
    fake.releases = [{ tag: `v${NEXT}`, body: NOTES, wrongSha: true }];
    await check();
    await eventually(message, `Melon ${NEXT} is available.`);
    // Cancelling installs nothing.
    await page.getByTestId('update-install').click();
    await page.getByTestId('confirm-cancel').click();
    expect(await page.getByTestId('update-progress-box').isHidden()).toBe(true);

    await page.getByTestId('update-install').click();
    const problem = await failing('/api/settings/update-melon', () => page.getByTestId('confirm-ok').click());
    expect(problem.code).toBe('update_failed');
    expect(problem.detail).toContain('SHA-512');
    await eventually(
      () => page.getByTestId('update-install-error-text').textContent(),
      'The update could not be downloaded or did not check out, so nothing was installed.',
    );
    expect(await page.getByTestId('update-install-error').locator('details').textContent()).toContain(
      problem.detail,
    );
    expect(await page.getByTestId('update-progress-box').getAttribute('class')).toContain('failed');
    await expect(stat(argvFile)).rejects.toThrow();
    await screenshot(page, 'updates-failed-install');
  });

  it('installs with one progress figure, waits for the restart and says "Updated to"', async () => {
    const { page } = browser;
    fake.releases = [{ tag: `v${NEXT}`, body: NOTES }];
    await check();
    await eventually(message, `Melon ${NEXT} is available.`);
    const held = proxy.hold();
    await page.getByTestId('update-install').click();
    await page.getByTestId('confirm-ok').click();
    await held.reached;

    // Half the file is in: one figure, the bar and its words.
    const bar = page.getByTestId('update-progress');
    await eventually(() => bar.evaluate((el) => (el as HTMLProgressElement).value), 50);
    expect(await page.getByTestId('update-percent').textContent()).toBe('Downloading: 50 %');
    await screenshot(page, 'updates-downloading');

    held.open();
    await eventually(() => bar.evaluate((el) => (el as HTMLProgressElement).value), 100);
    await page
      .getByTestId('info-message')
      .filter({ hasText: `Installing Melon ${NEXT}` })
      .waitFor();
    // The installer program was started with the downloaded, verified file.
    await eventually(
      () =>
        stat(argvFile).then(
          () => true,
          () => false,
        ),
      true,
    );
    const argv = JSON.parse(await readFile(argvFile, 'utf8')) as string[];
    const names = installerNames(NEXT);
    const file = process.arch === 'arm64' ? names.appImageArm : names.appImage;
    expect(argv).toEqual([join(t.dataDir, 'updates', file)]);
    expect(t.server.services.updates.status()).toMatchObject({ state: 'installing', percent: 100 });
    await screenshot(page, 'updates-installing');

    // The installer replaces Melon: this server stops, the new version starts on the same port.
    const port = Number(new URL(t.url).port);
    await t.stop(true);
    await eventually(
      async () => (await page.getByTestId('update-percent').textContent())!.includes('restarting'),
      true,
    );
    Object.assign(t, await startTestServer({ dataDir: t.dataDir, env, config: { version: NEXT, port } }));
    await eventually(() => page.getByTestId('update-done').textContent(), `Updated to ${NEXT}.`);
    await eventually(message, `Melon is up to date (${NEXT}).`);
    await screenshot(page, 'updates-updated');
  });
});
