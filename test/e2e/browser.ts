/**
 * Browser helpers for the end-to-end tests: playwright-core drives Debian's Chromium
 * (`apt-get install -y chromium`), headless, with a fresh profile; no browser is ever downloaded.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page, type Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  ADMIN_PASSWORD,
  ADMIN_USER,
  startTestServer,
  type TestServer,
  type TestServerOptions,
} from '../support/server.js';

export const CHROMIUM = process.env.MELON_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = join('test-results', 'screenshots');
/** Headless in a container, and quiet: nothing of Chromium's own reaches the network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** How long a UI change may take to appear; generous because the machine may be busy. */
export const UI_TIMEOUT = 15_000;

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions in the page (nothing may fail silently, not even in a script). */
  pageErrors: string[];
  close(): Promise<void>;
}

/** One browser per test file: a fresh profile in a temp folder, removed on close. */
export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'melon-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 900 },
    args: CHROMIUM_ARGS,
  });
  context.setDefaultTimeout(UI_TIMEOUT);
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    context,
    page,
    pageErrors,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export interface PageSession {
  t: TestServer;
  browser: Browser;
  /**
   * Opens the settings page and signs in through its form, as the first Admin unless `user` is
   * given, in the browser's page unless `page` is given.
   */
  signIn: (user?: { username: string; password: string }, page?: Page) => Promise<void>;
}

/**
 * A server and a browser for a whole test file, started together before its first test and closed
 * after its last; after every test the page must have thrown nothing. `t` and `browser` are filled
 * in by the beforeAll hook, so tests use them as they would the results of startTestServer and
 * launchBrowser. `options` may be a function, for options made by earlier set-up (a copied music
 * folder, registered before this so that it is removed after the server stops).
 */
export function useServerAndBrowser(
  options: TestServerOptions | (() => TestServerOptions | Promise<TestServerOptions>) = {},
): PageSession {
  const t = {} as TestServer;
  const browser = {} as Browser;
  beforeAll(async () => {
    const started = startTestServer(typeof options === 'function' ? await options() : options);
    const [server, launched] = await Promise.all([started, launchBrowser()]);
    Object.assign(t, server);
    Object.assign(browser, launched);
  });
  afterAll(async () => {
    await Promise.all([browser.close?.(), t.stop?.()]);
  });
  afterEach(() => {
    expect(browser.pageErrors).toEqual([]);
  });
  return {
    t,
    browser,
    signIn: (user = { username: ADMIN_USER, password: ADMIN_PASSWORD }, page = browser.page) =>
      signIn(page, t.url, user.username, user.password),
  };
}

/** Opens the settings page and signs in through its form. */
export async function signIn(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/admin`);
  await page.getByTestId('signin-username').fill(username);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  await page.getByTestId('whoami').waitFor();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('signout').click();
  await page.getByTestId('signin-form').waitFor();
}

/** Switches to a section by its tab, as a user would, and waits for its view. */
export async function openSection(page: Page, id: string): Promise<Locator> {
  // On a phone the links sit behind the Menu button.
  const menu = page.getByTestId('menu-toggle');
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  // A tab always draws its view anew (from the hash change that follows, or at once when it is the
  // open one): the view shown before is marked, so the wait is for the new one, not the old.
  await page.evaluate(() => document.querySelector('#view > .view')?.setAttribute('data-stale', ''));
  await page.getByTestId(`tab-${id}`).click();
  await page.locator(`[data-testid="view-${id}"]:not([data-stale])`).waitFor();
  return page.getByTestId(`view-${id}`);
}

/** A way the page is seen: its colour scheme and the window's width. */
export interface Look {
  scheme: 'light' | 'dark';
  width: number;
}

/**
 * Runs `check` in every look the views are checked in: light and dark, each at a phone's width
 * (390 px) and a desk's (1440 px).
 */
export async function inEveryLook(page: Page, check: (look: Look) => Promise<void>): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await check({ scheme, width });
    }
  }
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Waits until `read` gives the expected value (vitest's poll, with a timeout for a busy machine). */
export async function eventually<T>(read: () => Promise<T> | T, expected: T): Promise<void> {
  await expect.poll(read, { timeout: UI_TIMEOUT, interval: 100 }).toEqual(expected);
}

/** The texts of every element matching `locator`, trimmed. */
export async function texts(locator: Locator): Promise<string[]> {
  return (await locator.allTextContents()).map((text) => text.trim());
}

/**
 * Runs `action`, which must make the page send a request to `path` that fails, and checks that
 * the page shows that response's problem `detail` as an error message. Returns the problem.
 */
export async function expectDetailShown(
  page: Page,
  path: string | RegExp,
  action: () => Promise<void>,
): Promise<{ status: number; code: string; detail: string }> {
  const failed = page.waitForResponse(
    (response: Response) =>
      (typeof path === 'string' ? new URL(response.url()).pathname === path : path.test(response.url())) &&
      response.status() >= 400,
  );
  await action();
  const response = await failed;
  expect(response.headers()['content-type']).toMatch(/^application\/problem\+json/);
  const problem = (await response.json()) as { status: number; code: string; detail: string };
  expect(problem.detail.length).toBeGreaterThan(0);
  const shown = page.getByTestId('error-message').filter({ hasText: problem.detail });
  await shown.first().waitFor();
  return problem;
}
