import { beforeAll, describe, expect, it } from 'vitest';
import type { DevicePlays } from '../../server/contract/stats.js';
import type { PlayQueue } from '../../server/contract/listening.js';
import type { Mix, MixList } from '../../server/contract/mixes.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { useFixtureLibraryCopy } from '../support/fixture-library.js';
import { axeViolations, type AxeViolation } from './axe.js';
import { eventually, openSection, screenshot, useServerAndBrowser, inEveryLook } from './browser.js';

/**
 * Listen: a member starts an album in the page, hears it (the <audio> element's time advances),
 * and the statistics count the play with the browser's name once half the track was heard; the
 * queue is the member's play queue; every Listen page is accessible at phone and desk widths.
 */
const fixture = useFixtureLibraryCopy('melon-e2e-listen-');
const { t, browser, signIn } = useServerAndBrowser(() => ({ config: { libraryDirs: [fixture.library] } }));
let alex: TestUser;

const ALBUM = 'Fixture Album';

beforeAll(async () => {
  alex = await makeUser(t, { username: 'alex' });
});

const audioTime = () => browser.page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0);

async function devices(): Promise<DevicePlays[]> {
  const response = await t.call(`/api/stats/devices?userId=${alex.id}`, { token: alex.token });
  return (await response.json()) as DevicePlays[];
}

describe('Listen', () => {
  it('plays an album in the page, and the statistics count it with this browser’s name', async () => {
    const { page } = browser;
    await signIn(alex);
    const view = await openSection(page, 'listen');
    await view.getByTestId('album-card').first().waitFor();
    await view.getByTestId('device-name').fill('Kitchen');
    await view.getByTestId('device-name').press('Tab');
    await eventually(
      () => view.getByTestId('device-label').textContent(),
      'Plays from here count as “Browser (Kitchen)”.',
    );
    await screenshot(page, 'listen-albums');

    await page.getByRole('button', { name: `Play ${ALBUM}` }).click();
    const player = page.getByRole('region', { name: 'Player' });
    await player.getByRole('button', { name: 'Pause' }).waitFor();
    await eventually(() => player.getByTestId('player-title').textContent(), 'Tone MP3');
    // Heard, not just loaded: the element's clock moves on.
    await expect.poll(audioTime, { timeout: 15_000 }).toBeGreaterThan(0.3);
    // The address holds a stream token, never the page's session token, which acts everywhere.
    const address = new URL(await page.evaluate(() => document.querySelector('audio')?.src ?? ''));
    const inAddress = address.searchParams.get('access_token') ?? '';
    const session = await page.evaluate(() => sessionStorage.getItem('melon.session') ?? '');
    expect(inAddress).not.toBe('');
    expect(session).not.toContain(inAddress);
    expect((await t.call('/auth/check', { token: inAddress })).status).toBe(401);
    // Half of the first 2-second track is a play, logged with the browser's name.
    await expect
      .poll(devices, { timeout: 15_000 })
      .toEqual([{ device: 'Browser (Kitchen)', plays: expect.any(Number) as number }]);
    expect((await devices())[0]!.plays).toBeGreaterThanOrEqual(1);
    // The queue is the member's play queue, which a phone picks up.
    await expect
      .poll(
        async () => {
          const response = await t.call('/api/play-queue', { token: alex.token });
          const queue = (await response.json()) as PlayQueue;
          return { count: queue.tracks.length, by: queue.changedBy };
        },
        { timeout: 15_000 },
      )
      .toEqual({ count: 6, by: 'Browser (Kitchen)' });
    await screenshot(page, 'listen-playing');
  }, 90_000);

  it('pauses and resumes with Space, and goes on with the next track', async () => {
    const { page } = browser;
    const player = page.getByRole('region', { name: 'Player' });
    await player.getByRole('button', { name: 'Repeat: off' }).click();
    await player.getByRole('button', { name: 'Repeat: all' }).waitFor();
    // The album the first test started may still play, and the button fetches the tracks before it
    // plays them: paused first, the "Pause" awaited below can only be the new start's.
    await page.evaluate(() => document.querySelector('audio')!.pause());
    await player.getByRole('button', { name: 'Play', exact: true }).waitFor();
    await page.getByRole('button', { name: `Play ${ALBUM}` }).click();
    await player.getByRole('button', { name: 'Pause' }).waitFor();
    // The fixture's tracks last 2 s: slowed tenfold, one cannot end (and the next start) between a
    // key press and the check of what it did, however busy the machine.
    await page.evaluate(() => {
      const audio = document.querySelector('audio')!;
      audio.defaultPlaybackRate = 0.1;
      audio.playbackRate = 0.1;
      audio.currentTime = 0;
    });
    // Space anywhere but in a field or on a button.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Space');
    await player.getByRole('button', { name: 'Play', exact: true }).waitFor();
    expect(await page.evaluate(() => document.querySelector('audio')!.paused)).toBe(true);
    await page.keyboard.press('Space');
    await player.getByRole('button', { name: 'Pause' }).waitFor();
    const before = await player.getByTestId('player-title').textContent();
    await player.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => player.getByTestId('player-title').textContent()).not.toBe(before);
    await page.evaluate(() => {
      const audio = document.querySelector('audio')!;
      audio.defaultPlaybackRate = 1;
      audio.playbackRate = 1;
    });
  });

  it('opens an album with its tracks and durations, and edits the queue', async () => {
    const { page } = browser;
    const view = page.getByTestId('view-listen');
    await view.getByTestId('album-card').first().locator('.album-open').click();
    await view.getByTestId('listen-album').getByTestId('track-row').first().waitFor();
    expect(await view.getByTestId('track-row').count()).toBe(6);
    await expect.poll(() => view.locator('.track-duration').first().textContent()).toBe('0:02');
    await screenshot(page, 'listen-album');
    const player = page.getByRole('region', { name: 'Player' });
    await player.getByTestId('player-queue-toggle').click();
    const items = player.getByTestId('queue-item');
    await eventually(() => items.count(), 6);
    const first = await items.nth(1).locator('.queue-name').textContent();
    await items.nth(1).getByTestId('queue-down').click();
    await eventually(() => items.nth(2).locator('.queue-name').textContent(), first);
    await items.nth(5).getByTestId('queue-remove').click();
    await eventually(() => items.count(), 5);
    await screenshot(page, 'listen-queue');
    await player.getByTestId('queue-clear').click();
    await eventually(() => items.count(), 0);
    await player.getByTestId('player-idle').waitFor();
  });

  it('finds music as you type', async () => {
    const { page } = browser;
    const view = await openSection(page, 'listen');
    await view.getByTestId('listen-search').fill('tone fl');
    await eventually(
      async () => await view.getByTestId('search-tracks').locator('.track-name').allTextContents(),
      ['Tone FLAC'],
    );
    await view.getByTestId('listen-search').fill('');
    await view.getByTestId('album-grid').waitFor();
  });

  it('lists Melon’s mixes, plays one, and hides it from the member’s lists and shows it again', async () => {
    const { page } = browser;
    const view = await openSection(page, 'listen');
    await view.getByTestId('listen-tabs-mixes').click();
    await view.getByTestId('listen-mixes').getByRole('link', { name: 'Your top 50 this month' }).click();
    const mix = view.getByTestId('listen-playlist');
    await mix.getByTestId('track-row').first().waitFor();
    const read = await t.call('/api/mixes/mix-top-month', { token: alex.token });
    const { trackIds } = (await read.json()) as Mix;
    expect(trackIds.length).toBeGreaterThan(0);
    expect(await mix.getByTestId('track-row').count()).toBe(trackIds.length);
    await screenshot(page, 'listen-mix');

    await mix.getByTestId('play-all').click();
    const player = page.getByRole('region', { name: 'Player' });
    await player.getByRole('button', { name: 'Pause' }).waitFor();
    const titles = await mix.locator('.track-name').allTextContents();
    await eventually(
      async () => titles.includes((await player.getByTestId('player-title').textContent()) ?? ''),
      true,
    );
    await player.getByRole('button', { name: 'Pause' }).click();

    const listed = async () => {
      const response = await t.call('/api/mixes', { token: alex.token });
      return ((await response.json()) as MixList).items.map((item) => item.id);
    };
    await mix.getByTestId('mix-hide').click();
    await eventually(() => mix.getByTestId('mix-hide').textContent(), 'Show in my lists');
    expect(await listed()).not.toContain('mix-top-month');
    await mix.getByTestId('mix-hide').click();
    await eventually(() => mix.getByTestId('mix-hide').textContent(), 'Hide from my lists');
    expect(await listed()).toContain('mix-top-month');
  });

  it('has no accessibility violations at 390 and 1440 px, light and dark', async () => {
    const { page } = browser;
    const found: Array<AxeViolation & { where: string }> = [];
    const views: Array<[string, () => Promise<void>]> = [
      [
        'listen-albums',
        async () => {
          await openSection(page, 'listen');
          await page.getByTestId('album-card').first().waitFor();
        },
      ],
      [
        'listen-album',
        async () => {
          await page.getByTestId('album-card').first().locator('.album-open').click();
          await page.getByTestId('track-row').first().waitFor();
          // Paused first, so the "Pause" awaited is the new start's, not what played before.
          const player = page.getByRole('region', { name: 'Player' });
          await page.evaluate(() => document.querySelector('audio')?.pause());
          await player.getByRole('button', { name: 'Play', exact: true }).waitFor();
          await page.getByTestId('play-all').click();
          await player.getByRole('button', { name: 'Pause' }).waitFor();
        },
      ],
      [
        'listen-artist',
        async () => {
          await page.locator('.listen-header a').first().click();
          await page.getByTestId('listen-artist').locator('.track-row').first().waitFor();
        },
      ],
      [
        'listen-mix',
        async () => {
          await openSection(page, 'listen');
          await page.getByTestId('listen-tabs-mixes').click();
          await page.getByTestId('listen-mixes').getByRole('link').first().click();
          await page.getByTestId('listen-playlist').getByTestId('mix-hide').waitFor();
        },
      ],
      [
        'listen-genres',
        async () => {
          await openSection(page, 'listen');
          await page.getByTestId('listen-tabs-genres').click();
          await page.getByTestId('listen-genres').locator('li, .empty').first().waitFor();
        },
      ],
    ];
    await inEveryLook(page, async ({ scheme, width }) => {
      for (const [name, open] of views) {
        await open();
        await eventually(() => page.locator('.placeholder').count(), 0);
        const where = `${name} ${width}px ${scheme}`;
        found.push(...(await axeViolations(page)).map((violation) => ({ ...violation, where })));
        await screenshot(page, `a11y-${name}-${width}-${scheme}`);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
        expect(wide, `${where} scrolls sideways`).toBe(true);
      }
    });
    await page
      .getByRole('region', { name: 'Player' })
      .getByRole('button', { name: 'Pause' })
      .click()
      .catch(() => undefined);
    expect(found).toEqual([]);
  }, 240_000);
});
