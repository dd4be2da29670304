import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.js';
import { fakeScanner } from '../factories/library.js';
import { historyLibrary } from '../history/library.js';
import { lastfmCsv } from '../history/samples.js';
import { eventually, openSection, screenshot, useServerAndBrowser } from './browser.js';

/** The History section in Chromium: an import with its progress and report, then the year in review. */
const { browser, signIn } = useServerAndBrowser({
  scanner: fakeScanner(historyLibrary()),
  clock: new ManualClock(Date.now()),
});
const YEAR = new Date().getFullYear() - 1;

describe('History', () => {
  it('imports a Last.fm file, shows the report, then the year in review with its figures', async () => {
    const { page } = browser;
    await signIn();
    const view = await openSection(page, 'history');
    const csv = lastfmCsv([
      ['Rick Astley', 'Whenever You Need Somebody', 'Never Gonna Give You Up', `${YEAR}-03-01T10:00:00Z`],
      ['Rick Astley', 'Whenever You Need Somebody', 'Never Gonna Give You Up', `${YEAR}-03-02T10:00:00Z`],
      ['The Beatles', 'Abbey Road', 'Something', `${YEAR}-03-03T10:00:00Z`],
      ['Nobody', 'Nothing', 'Not Here', `${YEAR}-03-03T11:00:00Z`],
    ]);
    // The file is recognised from its content: no source chosen.
    await view
      .getByTestId('import-file')
      .setInputFiles({ name: 'scrobbles.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await view.getByTestId('import-submit').click();
    await eventually(() => view.getByTestId('import-status').textContent(), 'Done');
    expect(await view.getByTestId('import-taken-as').textContent()).toBe(
      'Read as Last.fm CSV (artist,album,title,date)',
    );
    const figures = await view.locator('.import-figures dd').allTextContents();
    expect(figures).toEqual(['4', '3', '1', '0', '0', '0']);
    await eventually(
      async () =>
        /Last\.fm CSV \(artist,album,title,date\): 3 added, 1 not in the library/u.test(
          (await view.getByTestId('past-import').first().textContent()) ?? '',
        ),
      true,
    );
    await eventually(
      () => view.getByTestId('missing-group').allTextContents(),
      ['1 listen of Nobody — Nothing'],
    );

    await view.getByTestId('review-year').selectOption(String(YEAR));
    await eventually(() => view.getByTestId('story-time-detail').textContent(), `3 plays in ${YEAR}`);
    expect(await view.getByTestId('story-streak').textContent()).toBe('3 days in a row');
    expect(
      await view
        .getByTestId('review-top-tracks')
        .getByTestId('review-top-tracks-item')
        .evaluateAll((gs) => gs.map((g) => g.dataset.label)),
    ).toEqual(['Never Gonna Give You Up', 'Something']);
    await screenshot(page, 'history');
  });
});
