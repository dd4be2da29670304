import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { writeTone } from '../support/audio.js';
import { tempDirPerFile } from '../support/temp-dir.js';
import { openSection, useServerAndBrowser } from './browser.js';

/**
 * Listen with a file the browser cannot play: a WMA track is transcoded on the fly, which has no
 * byte ranges, and seeking in it asks the server for the stream again from the new position while
 * the player's clock and length stay those of the track.
 */
const SECONDS = 60;
const ALBUM = 'Seek Album';

const root = tempDirPerFile('melon-e2e-seek-');
const { t, browser, signIn } = useServerAndBrowser(async () => {
  const album = root.path('music', 'Seek Artist', ALBUM);
  await mkdir(album, { recursive: true });
  await writeTone(join(album, '01 - Long WMA.wma'), {
    seconds: SECONDS,
    frequency: 330,
    codec: 'wmav2',
    bitRate: '64k',
    tags: { title: 'Long WMA', album: ALBUM, artist: 'Seek Artist' },
  });
  return { config: { libraryDirs: [root.path('music')] } };
});
let sam: TestUser;

beforeAll(async () => {
  sam = await makeUser(t, { username: 'sam' });
});

const audioTime = () => browser.page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0);
const audioSource = async () =>
  new URL(await browser.page.evaluate(() => document.querySelector('audio')?.src ?? ''), t.url);
/** "m:ss" as seconds. */
const secondsOf = (clock: string | null) => {
  const [minutes, seconds] = (clock ?? '').split(':').map(Number);
  return (minutes ?? 0) * 60 + (seconds ?? 0);
};

describe('Listen to a transcoded track', () => {
  it('seeks in a WMA track by restarting its transcode there, and time goes on from there', async () => {
    const { page } = browser;
    await signIn(sam);
    await openSection(page, 'listen');
    await page.getByRole('button', { name: `Play ${ALBUM}` }).click();
    const player = page.getByRole('region', { name: 'Player' });
    await player.getByRole('button', { name: 'Pause' }).waitFor();
    await expect.poll(audioTime, { timeout: 15_000 }).toBeGreaterThan(0.3);
    // The browser cannot play WMA: the page plays an MP3 made from it, from the start.
    const first = await audioSource();
    expect(first.searchParams.get('format')).toBe('mp3');
    expect(first.searchParams.has('timeOffset')).toBe(false);
    // The track's length (WMA's own framing makes it a hair under a minute).
    await expect
      .poll(async () => secondsOf(await player.getByTestId('player-duration').textContent()))
      .toBeGreaterThanOrEqual(59);
    const length = await player.getByTestId('player-duration').textContent();

    await player.getByTestId('player-seek').fill('40000');
    await expect.poll(async () => (await audioSource()).searchParams.get('timeOffset')).toBe('40.000');
    // Still playing, and the element's clock (which starts at 0 in the new stream) moves on.
    await player.getByRole('button', { name: 'Pause' }).waitFor();
    await expect.poll(audioTime, { timeout: 15_000 }).toBeGreaterThan(0.5);
    // The shown time is the track's: from 40 s on, not from 0; its length is still the track's.
    const shown = secondsOf(await player.getByTestId('player-elapsed').textContent());
    expect(shown).toBeGreaterThanOrEqual(40);
    expect(shown).toBeLessThan(55);
    expect(await player.getByTestId('player-duration').textContent()).toBe(length);
    const seekValue = Number(await player.getByTestId('player-seek').inputValue());
    expect(seekValue).toBeGreaterThanOrEqual(40_000);

    // The arrows seek from the track's position, not the new stream's clock: three presses of the
    // left arrow (10 s back each) from past 40 s restart the transcode between 10 and 20 s, once:
    // quick seeks ask for one encode, not one each (which the account's share would refuse).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const asked: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes('/stream?')) asked.push(request.url());
    };
    page.on('request', onRequest);
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowLeft');
    await expect
      .poll(async () => Number((await audioSource()).searchParams.get('timeOffset')))
      .toBeLessThan(20);
    expect(Number((await audioSource()).searchParams.get('timeOffset'))).toBeGreaterThanOrEqual(10);
    await player.getByRole('button', { name: 'Pause' }).waitFor();
    await expect.poll(audioTime, { timeout: 15_000 }).toBeGreaterThan(0.3);
    page.off('request', onRequest);
    expect(new Set(asked.map((url) => new URL(url).searchParams.get('timeOffset'))).size).toBe(1);
  }, 90_000);
});
