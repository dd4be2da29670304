/**
 * Desktop smoke test (CI only: needs the Electron binary and a display, see
 * .github/workflows/desktop.yml). Starts the built app, signs in through its settings window,
 * checks the window's isolation and that quitting stops the server and flushes the store.
 * Run: `npm run build:app && xvfb-run npx tsx test/desktop/smoke.electron.ts`.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron } from 'playwright-core';

const PASSWORD = 'smoke-test-password';

async function main(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'melon-smoke-'));
  const dataDir = join(home, 'data');
  const library = join(home, 'music');
  await mkdir(library, { recursive: true });
  const app = await electron.launch({
    args: ['dist/app/main.js'],
    env: {
      ...process.env,
      MELON_DATA_DIR: dataDir,
      MELON_LIBRARY: library,
      MELON_PORT: '0',
      MELON_HOST: '127.0.0.1',
      MELON_ADMIN_USER: 'admin',
      MELON_ADMIN_PASSWORD: PASSWORD,
      MELON_RELEASES_URL: 'http://127.0.0.1:9',
    },
    timeout: 60_000,
  });
  try {
    const page = await app.firstWindow({ timeout: 60_000 });
    await page.getByTestId('signin-username').fill('admin', { timeout: 30_000 });
    await page.getByTestId('signin-password').fill(PASSWORD);
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('tab-invites').waitFor();

    // The page sees the three desktop actions and nothing of Node.
    const isolation = await page.evaluate(() => ({
      bridge: Object.keys((window as unknown as { melonDesktop?: object }).melonDesktop ?? {}).sort(),
      node: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    assert.deepEqual(isolation, {
      bridge: ['copyText', 'openDataFolder', 'restartServer'],
      node: 'undefined',
      process: 'undefined',
    });
    await page.getByTestId('desktop-tools').waitFor();

    // Closing the window hides it to the tray; the app keeps running.
    const windowCount = await app.evaluate(({ BrowserWindow }) => {
      BrowserWindow.getAllWindows()[0]?.close();
      return BrowserWindow.getAllWindows().length;
    });
    assert.equal(windowCount, 1);

    await mkdir('test-results/screenshots', { recursive: true });
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.show());
    await page.screenshot({ path: 'test-results/screenshots/desktop-smoke.png' });
  } finally {
    await app.close();
  }
  // Quitting stopped the server cleanly: the store is on disk.
  const users = await readFile(join(dataDir, 'users.json'), 'utf8');
  assert.match(users, /"admin"/);
  await rm(home, { recursive: true, force: true });
  console.log('desktop smoke test passed');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
