import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFixtureLibraryCopy } from '../support/fixture-library.js';
import { openSection, screenshot, texts, useServerAndBrowser } from './browser.js';

/**
 * The settings page's Music library view: the music folders with whether each is there, and the
 * files Melon could not read with their reasons (issue: refused files were named only in an
 * Admin-only API; a missing folder nowhere a person would look).
 */
const fixture = useFixtureLibraryCopy('melon-e2e-library-');
let unplugged: string;
const { t, browser, signIn } = useServerAndBrowser(async () => {
  const music = fixture.library;
  await mkdir(join(music, 'Broken'), { recursive: true });
  await writeFile(join(music, 'Broken', 'not really.mp3'), 'this is a text file, not audio');
  await writeFile(join(music, 'Broken', 'empty.flac'), '');
  unplugged = join(dirname(music), 'unplugged-disk', 'Music');
  return { config: { libraryDirs: [music, unplugged] } };
});

describe('Music library view', () => {
  it('names a missing music folder and every file Melon could not read, with its reason', async () => {
    const { page } = browser;
    await signIn();
    const view = await openSection(page, 'library');
    await view.getByTestId('folder-missing').waitFor();
    expect(await texts(view.getByTestId('folder-ok').locator('.folder-path'))).toEqual([fixture.library]);
    expect(await view.getByTestId('folder-missing').textContent()).toContain(unplugged);
    expect(await view.getByTestId('folder-missing').textContent()).toContain('Not found');

    const problems = view.getByTestId('library-problem-list').locator('.problem-path');
    await problems.first().waitFor();
    const listed = await texts(problems);
    expect(listed.some((path) => path.endsWith('not really.mp3'))).toBe(true);
    expect(listed.some((path) => path.endsWith('empty.flac'))).toBe(true);
    const reasons = await texts(view.getByTestId('library-problem-list').locator('.problem-reason'));
    expect(reasons.every((reason) => reason.length > 0)).toBe(true);
    expect(await view.getByTestId('library-scan-state').textContent()).toContain(
      `except ${listed.length} files`,
    );
    // The page agrees with the API it reads.
    const status = (await (await t.call('/api/library/scan', { token: t.adminToken })).json()) as {
      problemCount: number;
    };
    expect(status.problemCount).toBe(listed.length);

    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'library-390');
    await page.setViewportSize({ width: 1200, height: 900 });
  });
});
