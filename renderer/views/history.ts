import { errorText } from '../api.js';
import { barChart } from '../charts.js';
import type { View, ViewContext } from '../context.js';
import { card, field, h, onSubmit, replace, submitButton } from '../dom.js';
import { formatDuration } from '../format.js';

/** The shapes of GET /api/stats/import/{id} and /api/stats/year-in-review (docs/API.md, Listening history). */
interface ImportProgress {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  done: boolean;
  entriesRead: number;
  matched: number;
  unmatched: number;
  duplicates: number;
  refused: number;
  ignored: number;
  problems: Array<{ entry: number; reason: string }>;
  error: string | null;
}
interface Ref {
  id: string;
  name: string | null;
}
interface Ranked extends Ref {
  rank: number;
  plays: number;
}
interface Review {
  year: number;
  years: number[];
  totalMs: number;
  plays: number;
  skipRate: number;
  topTracks: Array<Ranked & { artists: Ref[] }>;
  topAlbums: Ranked[];
  topArtists: Ranked[];
  topGenres: Array<{ rank: number; genre: string; plays: number }>;
  months: Array<{ month: number; plays: number }>;
  hours: Array<{ hour: number; plays: number }>;
  mostPlayedDay: { date: string; plays: number } | null;
  longestStreak: { days: number; from: string; to: string } | null;
  topTrackOfADay: { date: string; plays: number; track: Ref & { artists: Ref[] } } | null;
  newArtists: { count: number; items: Array<Ref & { plays: number }> };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SOURCES = [
  { value: 'listenbrainz', label: 'ListenBrainz export (JSON lines or JSON)' },
  { value: 'lastfm', label: 'Last.fm scrobbles (CSV: artist, album, title, date)' },
  { value: 'spotify', label: 'Spotify Extended Streaming History (JSON)' },
];

const plays = (n: number) => `${n} ${n === 1 ? 'play' : 'plays'}`;

const bigNumber = (label: string, value: string, testid: string) =>
  h(
    'div',
    { class: 'figure' },
    h('span', { class: 'figure-value', testid, text: value }),
    h('span', { text: label }),
  );

/** History: bring listening history in (imports with their progress and report) and the year in review. */
export const historyView: View = (ctx, root) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const review = h('div', { class: 'review', testid: 'review' });
  let shown = { year: new Date().getFullYear(), household: false };
  const show = (year: number, household: boolean) => {
    shown = { year, household };
    void loadReview(ctx, review, year, household, show);
  };
  // A finished import may bring years with plays: the picker is drawn again.
  const imported = () => show(shown.year, shown.household);
  replace(
    root,
    importCard(ctx, (t) => (timer = t), imported),
    review,
  );
  show(shown.year, shown.household);
  return () => clearTimeout(timer);
};

function importCard(
  ctx: ViewContext,
  keepTimer: (timer: ReturnType<typeof setTimeout>) => void,
  onDone: () => void,
): HTMLElement {
  const source = h(
    'select',
    { testid: 'import-source' },
    ...SOURCES.map((s) => h('option', { text: s.label, attrs: { value: s.value } })),
  );
  const file = h('input', { testid: 'import-file', attrs: { type: 'file', required: true } });
  const submit = submitButton('Import', 'import-submit');
  const report = h('div', {
    class: 'import-report',
    testid: 'import-report',
    attrs: { 'aria-live': 'polite' },
  });
  const form = h('form', { class: 'import-form' }, field('From', source), field('File', file), submit);
  onSubmit(form, submit, async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    const body = new FormData();
    body.set('source', source.value);
    body.set('file', chosen);
    try {
      const { id } = await ctx.api.json<{ id: string }>('/api/stats/import', { method: 'POST', form: body });
      const poll = async () => {
        const progress = await ctx.api.json<ImportProgress>(`/api/stats/import/${id}`);
        showProgress(report, progress);
        if (progress.done) onDone();
        else
          keepTimer(
            setTimeout(() => void poll().catch((e: unknown) => ctx.messages.error(errorText(e))), 500),
          );
      };
      await poll();
    } catch (error) {
      ctx.messages.error(errorText(error));
    }
  });
  return card('Bring your history', form, report);
}

function showProgress(report: HTMLElement, p: ImportProgress): void {
  const state = p.status === 'failed' ? `Failed: ${p.error ?? ''}` : p.done ? 'Done' : 'Importing…';
  replace(
    report,
    h('p', { testid: 'import-status', text: state }),
    h(
      'dl',
      { class: 'import-figures' },
      ...(
        [
          ['Entries read', p.entriesRead],
          ['Added as plays', p.matched],
          ['Not in the library yet', p.unmatched],
          ['Already counted', p.duplicates],
          ['Refused', p.refused],
          ['Not music (podcasts)', p.ignored],
        ] as const
      ).flatMap(([label, value]) => [h('dt', { text: label }), h('dd', { text: String(value) })]),
    ),
    p.problems.length > 0
      ? h(
          'ul',
          { class: 'import-problems' },
          ...p.problems.slice(0, 10).map((x) => h('li', { text: `Entry ${x.entry}: ${x.reason}` })),
        )
      : null,
  );
}

async function loadReview(
  ctx: ViewContext,
  root: HTMLElement,
  year: number,
  household: boolean,
  show: (year: number, household: boolean) => void,
): Promise<void> {
  root.setAttribute('aria-busy', 'true');
  try {
    const r = await ctx.api.json<Review>('/api/stats/year-in-review', { query: { year, household } });
    const years = r.years.includes(year) ? r.years : [year, ...r.years];
    const picker = h(
      'select',
      { testid: 'review-year', attrs: { 'aria-label': 'Year' } },
      ...years.map((y) => h('option', { text: String(y), attrs: { value: y, selected: y === year } })),
    );
    picker.addEventListener('change', () => show(Number(picker.value), household));
    const everyone = h('input', {
      testid: 'review-household',
      attrs: { type: 'checkbox', checked: household },
    });
    everyone.addEventListener('change', () => show(year, everyone.checked));
    const print = h('button', {
      class: 'button small no-print',
      text: 'Print',
      attrs: { type: 'button' },
      on: { click: () => window.print() },
    });
    const bars = (items: Array<{ name: string | null; plays: number }>, testid: string, title: string) =>
      barChart(
        items.map((i) => ({ label: i.name ?? 'unknown', value: i.plays, text: plays(i.plays) })),
        testid,
        title,
      );
    replace(
      root,
      card(
        `${household ? 'Our' : 'My'} ${year} in music`,
        h(
          'div',
          { class: 'review-controls no-print' },
          field('Year', picker),
          field('The whole household', everyone),
          print,
        ),
        h(
          'div',
          { class: 'summary review-figures' },
          bigNumber('of music', formatDuration(r.totalMs), 'review-time'),
          bigNumber('plays', String(r.plays), 'review-plays'),
          bigNumber('days in a row at most', String(r.longestStreak?.days ?? 0), 'review-streak'),
          bigNumber('new artists', String(r.newArtists.count), 'review-new-artists'),
          bigNumber('skipped', `${Math.round(r.skipRate * 100)} %`, 'review-skips'),
        ),
        r.mostPlayedDay
          ? h('p', { text: `Busiest day: ${r.mostPlayedDay.date}, ${plays(r.mostPlayedDay.plays)}.` })
          : null,
        r.topTrackOfADay
          ? h('p', {
              text: `On ${r.topTrackOfADay.date}, “${r.topTrackOfADay.track.name ?? 'a track'}” played ${r.topTrackOfADay.plays === 1 ? 'once' : `${r.topTrackOfADay.plays} times`}.`,
            })
          : null,
        r.plays === 0 ? h('p', { text: `No plays in ${year} yet — import your history above.` }) : null,
      ),
      r.plays > 0 ? card('Top tracks', bars(r.topTracks, 'review-top-tracks', 'Top tracks')) : null,
      r.plays > 0 ? card('Top artists', bars(r.topArtists, 'review-top-artists', 'Top artists')) : null,
      r.plays > 0 ? card('Top albums', bars(r.topAlbums, 'review-top-albums', 'Top albums')) : null,
      r.plays > 0
        ? card(
            'Top genres',
            bars(
              r.topGenres.map((g) => ({ name: g.genre, plays: g.plays })),
              'review-top-genres',
              'Top genres',
            ),
          )
        : null,
      r.plays > 0
        ? card(
            'Month by month',
            bars(
              r.months.map((m) => ({ name: MONTHS[m.month - 1]!, plays: m.plays })),
              'review-months',
              'Plays per month',
            ),
          )
        : null,
      r.plays > 0
        ? card(
            'Hour of the day',
            bars(
              r.hours
                .filter((x) => x.plays > 0)
                .map((x) => ({ name: `${String(x.hour).padStart(2, '0')}:00`, plays: x.plays })),
              'review-hours-chart',
              'Plays per hour of the day',
            ),
          )
        : null,
      r.newArtists.items.length > 0
        ? card(
            'First heard this year',
            h(
              'ul',
              { class: 'top-list' },
              ...r.newArtists.items.map((a) =>
                h('li', { text: `${a.name ?? 'unknown'} · ${plays(a.plays)}` }),
              ),
            ),
          )
        : null,
    );
  } catch (error) {
    replace(root, h('p', { class: 'error', text: errorText(error) }));
  } finally {
    root.removeAttribute('aria-busy');
  }
}
