import type {
  ImportProgress,
  ImportStarted,
  MissingListens,
  YearInReview as Review,
} from '../../server/contract/history.js';
import { rankedBars } from '../charts.js';
import type { View, ViewContext } from '../context.js';
import { card, field, h, onSubmit, replace, submitButton, viewHeading, type Child } from '../dom.js';
import { formatDateTime, formatDuration, formatNumber } from '../format.js';
import { count, plays } from '../plural.js';
import { IMPORT_TOO_LARGE } from '../problems.js';
import { section } from '../ui/section.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The server recognises the file from its content; a source is only a hint for odd files. */
const SOURCES = [
  { value: '', label: 'Recognise it from the file (ZIP, JSON or CSV)' },
  { value: 'listenbrainz', label: 'ListenBrainz export (ZIP, JSON lines or JSON)' },
  { value: 'lastfm', label: 'Last.fm or Libre.fm scrobbles (CSV)' },
  { value: 'spotify', label: "Spotify's my_spotify_data.zip or its JSON" },
];

const bigNumber = (label: string, value: string, testid: string) =>
  h(
    'div',
    { class: 'figure' },
    h('span', { class: 'figure-value', testid, text: value }),
    h('span', { class: 'muted', text: label }),
  );

/**
 * History: bring listening history in (imports with their progress and report) and the year in
 * review, one listener's or the household's, for any year with plays.
 */
export const historyView: View = (ctx, root) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const shown = { year: new Date().getFullYear(), household: false };
  const review = section<Review>({
    testid: 'review',
    label: 'the year in review',
    load: () =>
      ctx.api.json<Review>('/api/stats/year-in-review', {
        query: { year: shown.year, household: shown.household },
      }),
    render: (r) => renderReview(r, shown, show),
  });
  review.element.classList.add('review');
  function show(year: number, household: boolean): void {
    shown.year = year;
    shown.household = household;
    void review.reload();
  }
  const past = section<ImportProgress[]>({
    testid: 'past-imports',
    label: 'past imports',
    load: () => ctx.api.json<ImportProgress[]>('/api/stats/import'),
    isEmpty: (jobs) => jobs.length === 0,
    empty: 'No imports yet.',
    render: (jobs) => h('ul', { class: 'past-imports' }, ...jobs.map(pastImport)),
  });
  const missing = section<MissingListens>({
    testid: 'missing',
    label: 'the listens missing from your library',
    load: () => ctx.api.json<MissingListens>('/api/stats/unmatched'),
    isEmpty: (m) => m.listens === 0,
    empty: 'Every imported listen found its track.',
    render: (m) =>
      h(
        'ul',
        { class: 'missing-listens' },
        ...m.groups.map((g) =>
          h('li', {
            testid: 'missing-group',
            text: `${count(g.listens, 'listen', 'listens')} of ${g.artist}${g.album ? ` — ${g.album}` : ''}`,
          }),
        ),
      ),
  });
  // A finished import may bring years with plays: the picker is drawn again.
  const imported = () => {
    show(shown.year, shown.household);
    void past.reload();
    void missing.reload();
    void missing.reload();
  };
  replace(
    root,
    viewHeading('History'),
    importCard(ctx, (t) => (timer = t), imported),
    card('Past imports', past.element),
    card('Missing from your library', missing.element),
    review.element,
  );
  void review.reload();
  void past.reload();
  return () => {
    clearTimeout(timer);
    review.cancel();
  };
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
  // An Admin may import for another member.
  const member = h('select', { testid: 'import-member' }, h('option', { text: 'Me', attrs: { value: '' } }));
  if (ctx.session.role === 'Admin')
    void ctx.api
      .json<Array<{ id: string; username: string }>>('/api/users')
      .then((users) => {
        for (const u of users)
          if (u.id !== ctx.session.userId)
            member.append(h('option', { text: u.username, attrs: { value: u.id } }));
      })
      .catch(() => undefined);
  const form = h(
    'form',
    { class: 'import-form' },
    ctx.session.role === 'Admin' ? field('For', member) : null,
    field('From', source),
    field('File', file),
    submit,
  );
  onSubmit(form, submit, async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    const body = new FormData();
    if (source.value) body.set('source', source.value);
    if (member.value) body.set('userId', member.value);
    body.set('file', chosen);
    try {
      const { id } = await ctx.api.json<ImportStarted>('/api/stats/import', { method: 'POST', form: body });
      const poll = async () => {
        const progress = await ctx.api.json<ImportProgress>(`/api/stats/import/${id}`);
        showProgress(report, progress);
        if (progress.done) onDone();
        else keepTimer(setTimeout(() => void poll().catch((e: unknown) => ctx.messages.error(e)), 500));
      };
      await poll();
    } catch (error) {
      ctx.messages.error(error, { payload_too_large: IMPORT_TOO_LARGE });
    }
  });
  return card('Bring your history', form, report);
}

/** One past import: when, what it was read as, and its outcome. */
function pastImport(p: ImportProgress): HTMLElement {
  const when = formatDateTime(p.createdAt);
  const outcome =
    p.status === 'failed'
      ? `failed: ${p.error ?? ''}`
      : p.done
        ? `${p.matched} added, ${p.unmatched} not in the library, ${p.duplicates} already counted, ${p.refused} refused`
        : 'running';
  return h(
    'li',
    { testid: 'past-import' },
    h('strong', { text: when }),
    ` — ${p.takenAs ?? p.source}: ${outcome}`,
  );
}

function showProgress(report: HTMLElement, p: ImportProgress): void {
  const percent = p.bytesTotal > 0 ? Math.min(100, Math.floor((100 * p.bytesRead) / p.bytesTotal)) : 0;
  const state =
    p.status === 'failed' ? `Failed: ${p.error ?? ''}` : p.done ? 'Done' : `Importing… ${percent} %`;
  replace(
    report,
    h('p', { testid: 'import-status', text: state }),
    p.takenAs ? h('p', { class: 'muted', testid: 'import-taken-as', text: `Read as ${p.takenAs}` }) : null,
    p.done
      ? null
      : h('progress', {
          testid: 'import-progress',
          attrs: { max: '100', value: String(percent), 'aria-label': 'Import progress' },
        }),
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
          ...p.problems
            .slice(0, 10)
            .map((x) => h('li', { text: `Entry ${x.entry}${x.file ? ` (${x.file})` : ''}: ${x.reason}` })),
        )
      : null,
  );
}

function renderReview(
  r: Review,
  shown: { year: number; household: boolean },
  show: (year: number, household: boolean) => void,
): Child[] {
  const { year, household } = shown;
  const years = r.years.includes(year) ? r.years : [year, ...r.years];
  const picker = h(
    'select',
    { testid: 'review-year' },
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
  const who = household ? 'the household' : 'me';
  const bars = (items: Array<{ name: string | null; plays: number }>, testid: string, title: string) =>
    items.length > 0
      ? rankedBars(
          items.map((i) => ({ label: i.name ?? 'unknown', value: i.plays, text: plays(i.plays) })),
          testid,
          `${title}, ${year}, ${who}`,
        )
      : h('p', { class: 'muted', testid: `${testid}-empty`, text: 'None this year.' });
  const played = r.plays > 0;
  return [
    card(
      `${household ? 'Our' : 'My'} ${year} in music`,
      h(
        'div',
        { class: 'review-controls no-print' },
        field('Year', picker),
        h('label', { class: 'check' }, everyone, h('span', { text: 'The whole household' })),
        print,
      ),
      h(
        'div',
        { class: 'summary review-figures' },
        bigNumber('of music', formatDuration(r.totalMs), 'review-time'),
        bigNumber('plays', formatNumber(r.plays), 'review-plays'),
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
      played
        ? null
        : h('p', { class: 'muted', text: `No plays in ${year} yet — import your history above.` }),
    ),
    played
      ? h(
          'div',
          { class: 'grid-2' },
          card('Top tracks', bars(r.topTracks, 'review-top-tracks', 'Top tracks')),
          card('Top artists', bars(r.topArtists, 'review-top-artists', 'Top artists')),
          card('Top albums', bars(r.topAlbums, 'review-top-albums', 'Top albums')),
          card(
            'Top genres',
            bars(
              r.topGenres.map((g) => ({ name: g.genre, plays: g.plays })),
              'review-top-genres',
              'Top genres',
            ),
          ),
        )
      : null,
    played
      ? card(
          'Month by month',
          bars(
            r.months.map((m) => ({ name: MONTHS[m.month - 1]!, plays: m.plays })),
            'review-months',
            'Plays per month',
          ),
        )
      : null,
    played
      ? card(
          'Hour of the day',
          bars(
            // Every hour of the day, those without plays too: the shape of a day is the point.
            Array.from({ length: 24 }, (_, hour) => ({
              name: `${String(hour).padStart(2, '0')}:00`,
              plays: r.hours.find((x) => x.hour === hour)?.plays ?? 0,
            })),
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
            ...r.newArtists.items.map((a) => h('li', { text: `${a.name ?? 'unknown'} · ${plays(a.plays)}` })),
          ),
        )
      : null,
  ];
}
