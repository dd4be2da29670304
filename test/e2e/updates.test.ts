import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '../../server/config.js';
import { RELEASE_CACHE_MS } from '../../server/services/updates/release-source.js';
import { FakeReleaseServer, installerNames, OWNER, REPO } from '../support/fake-release-server.js';
import { ADMIN_PASSWORD, ADMIN_USER, startTestServer, type TestServer } from '../support/server.js';
import {
  eventually,
  expectDetailShown,
  launchBrowser,
  openSection,
  screenshot,
  signIn,
  texts,
  type Browser,
} from './browser.js';
import { GatedProxy } from './gated-proxy.js';

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
let t: TestServer;
let browser: Browser;
let dir: string;
let argvFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'melon-e2e-update-'));
  argvFile = join(dir, 'installer-argv.json');
  const installer = join(dir, 'fake-installer.mjs');
  await writeFile(
    installer,
    `import { writeFileSync } from 'node:fs';\n` +
      `writeFileSync(${JSON.stringify(argvFile)}, JSON.stringify(process.argv.slice(2)));\n`,
  );
  fake = await FakeReleaseServer.start();
  proxy = await GatedProxy.start(fake.url);
  [t, browser] = await Promise.all([
    startTestServer({
      env: {
        MELON_RELEASES_URL: proxy.url,
        MELON_RELEASES_REPO: `${OWNER}/${REPO}`,
        MELON_INSTALL_COMMAND: `"${process.execPath}" "${installer}"`,
      },
    }),
    launchBrowser(),
  ]);
  await signIn(browser.page, t.url, ADMIN_USER, ADMIN_PASSWORD);
});

afterAll(async () => {
  await Promise.all([browser?.close(), t?.stop()]);
  await proxy?.close();
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  expect(browser.pageErrors).toEqual([]);
});

async function check(): Promise<void> {
  const view = await openSection(browser.page, 'updates');
  await view.getByTestId('update-check').click();
}

const message = () => browser.page.getByTestId('update-message').textContent();

describe('Updates', () => {
  it("shows the failure's detail when the release source is down, then that Melon is up to date", async () => {
    const { page } = browser;
    fake.mode = 'error500';
    const problem = await expectDetailShown(page, '/api/settings/check-for-updates', check);
    expect(problem).toMatchObject({ status: 400, code: 'update_check_failed' });
    await eventually(message, `The update check failed: ${problem.detail}`);
    await screenshot(page, 'updates-failed-check');

    fake.mode = 'ok';
    fake.releases = [];
    await check();
    await eventually(message, `Melon is up to date (${APP_VERSION}).`);
    expect(await page.getByTestId('update-current').textContent()).toBe(APP_VERSION);
  });

  it('shows the current and latest version and the release notes rendered from markdown', async () => {
    const { page } = browser;
    fake.releases = [{ tag: `v${NEXT}`, body: NOTES }];
    t.clock.advance(RELEASE_CACHE_MS + 1000); // past the cached "no release" answer
    await check();
    await eventually(message, `Melon ${NEXT} is available.`);
    expect(await page.getByTestId('update-current').textContent()).toBe(APP_VERSION);
    expect(await page.getByTestId('update-latest').textContent()).toBe(NEXT);

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
    // Sanitised: no script, no event handler attributes, nothing ran.
    expect(await notes.locator('script').count()).toBe(0);
    expect(await notes.locator('[onerror]').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await screenshot(page, 'updates-available');
  });

  it("shows the installer's reason when the download does not match its checksum", async () => {
    const { page } = browser;
    fake.releases = [{ tag: `v${NEXT}`, body: NOTES, wrongSha: true }];
    await check();
    await eventually(message, `Melon ${NEXT} is available.`);
    const problem = await expectDetailShown(page, '/api/settings/update-melon', () =>
      page.getByTestId('update-install').click(),
    );
    expect(problem.code).toBe('update_failed');
    expect(problem.detail).toContain('SHA-512');
    await eventually(
      async () => (await page.getByTestId('update-percent').textContent())!.split(' — ')[1],
      `The update failed: ${problem.detail}`,
    );
    expect(await page.getByTestId('update-progress-box').getAttribute('class')).toContain('failed');
    await expect(stat(argvFile)).rejects.toThrow();
    await screenshot(page, 'updates-failed-install');
  });

  it('installs: the progress bar follows the download to 100 % and the installer gets the verified file', async () => {
    const { page } = browser;
    fake.releases = [{ tag: `v${NEXT}`, body: NOTES }];
    await check();
    await eventually(message, `Melon ${NEXT} is available.`);
    const held = proxy.hold();
    await page.getByTestId('update-install').click();
    await held.reached;

    // Half the file is in: the bar shows it while the download is held.
    const bar = page.getByTestId('update-progress');
    await eventually(() => bar.evaluate((el) => (el as HTMLProgressElement).value), 50);
    expect(await page.getByTestId('update-percent').textContent()).toBe('50 % — Downloading… 50 %');
    expect(await page.getByTestId('update-progress-box').getAttribute('class')).not.toContain('failed');
    await screenshot(page, 'updates-downloading');

    held.open();
    await eventually(() => bar.evaluate((el) => (el as HTMLProgressElement).value), 100);
    expect(await page.getByTestId('update-percent').textContent()).toBe(
      `100 % — Installing Melon ${NEXT}. Melon restarts when it is done.`,
    );
    await page
      .getByTestId('info-message')
      .filter({ hasText: `Installing Melon ${NEXT}` })
      .waitFor();
    await screenshot(page, 'updates-installing');

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
  });
});
