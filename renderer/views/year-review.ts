/**
 * The year in review, one listener's or the household's: a story of cards (year-story.ts), who in
 * the household listened most, the months and hours in the dashboard's charts, the top lists, and
 * the story saved as a picture or printed.
 */
import type { YearInReview as Review } from '../../server/contract/history.js';
import { activityChart, rankedBars, type Chart, type Ranked } from '../charts.js';
import type { ViewContext } from '../context.js';
import { card, field, h, type Child } from '../dom.js';
import { formatDuration, formatNumber } from '../format.js';
import { plays } from '../plural.js';
import { hrefOf } from '../route.js';
import { ObjectUrls } from '../ui/pictures.js';
import { section } from '../ui/section.js';
import { savePicture } from '../year-picture.js';
import { storyCards, type StoryCard } from '../year-story.js';
import { coverImage } from './listen-parts.js';

export interface YearReview {
  element: HTMLElement;
  reload(): Promise<void>;
  dispose(): void;
}

/** The review section; a Pass account (a wall display) sees the household's year from the start. */
export function yearReview(ctx: ViewContext): YearReview {
  const shown = { year: new Date().getFullYear(), household: ctx.session.role === 'Pass' };
  let charts: Chart[] = [];
  let urls = new ObjectUrls();
  const clear = () => {
    for (const chart of charts) chart.destroy();
    charts = [];
    urls.revokeAll();
    urls = new ObjectUrls();
  };
  const review = section<Review>({
    testid: 'review',
    label: 'the year in review',
    load: () =>
      ctx.api.json<Review>('/api/stats/year-in-review', {
        query: { year: shown.year, household: shown.household },
      }),
    render: (r) => {
      clear();
      const drawn = renderReview(ctx, r, shown, show, urls);
      charts = drawn.charts;
      return drawn.children;
    },
  });
  review.element.classList.add('review');
  function show(year: number, household: boolean): void {
    shown.year = year;
    shown.household = household;
    void review.reload();
  }
  return {
    element: review.element,
    reload: () => review.reload(),
    dispose: () => {
      review.cancel();
      clear();
    },
  };
}

function renderReview(
  ctx: ViewContext,
  r: Review,
  shown: { year: number; household: boolean },
  show: (year: number, household: boolean) => void,
  urls: ObjectUrls,
): { children: Child[]; charts: Chart[] } {
  const { year, household } = shown;
  const cards = storyCards(r);
  const pictures = new Map<StoryCard['key'], HTMLImageElement>();
  const story = h(
    'ol',
    { class: 'story', testid: 'review-story', attrs: { 'aria-label': `${year} in cards` } },
    ...cards.map((c) => storyCard(ctx, c, urls, pictures)),
  );
  const title = `${household ? 'Our' : 'My'} ${year} in music`;
  const controls = reviewControls(ctx, r, shown, show, () => savePicture(title, cards, pictures, year));
  if (r.plays === 0)
    return {
      children: [
        card(
          title,
          controls,
          h('p', {
            class: 'muted',
            testid: 'review-empty',
            text: `No plays in ${year} yet. Music played on any device counts, and History below brings in plays from elsewhere.`,
          }),
        ),
      ],
      charts: [],
    };
  const months = activityChart(
    r.months.map((m) => ({
      start: new Date(year, m.month - 1, 1).toISOString(),
      plays: m.plays,
      listeningMs: m.listeningMs,
    })),
    'month',
    'Plays per month',
    'review-months',
  );
  // Every hour of the day, those without plays too: the shape of a day is the point.
  const hours = activityChart(
    r.hours.map((x) => ({
      start: new Date(year, 0, 1, x.hour).toISOString(),
      plays: x.plays,
      listeningMs: x.listeningMs,
    })),
    'hour',
    'Plays per hour of the day',
    'review-hours',
  );
  const who = household ? 'the household' : 'me';
  const bars = (rows: Ranked[], testid: string, label: string) =>
    rows.length > 0
      ? rankedBars(rows, testid, `${label}, ${year}, ${who}`)
      : h('p', { class: 'muted', testid: `${testid}-empty`, text: 'None this year.' });
  const ranked = (
    items: Array<{ id?: string; name: string | null; plays: number; listeningMs: number }>,
    kind?: 'album' | 'artist',
  ): Ranked[] =>
    items.map((i) => ({
      label: i.name ?? 'unknown',
      value: i.plays,
      text: `${plays(i.plays)} · ${formatDuration(i.listeningMs)}`,
      ...(kind && i.id ? { href: hrefOf('listen', { [kind]: i.id }) } : {}),
    }));
  return {
    charts: [months, hours],
    children: [
      card(title, controls, story),
      household && r.members.length > 0 ? membersCard(r) : null,
      h(
        'div',
        { class: 'grid-2 review-charts' },
        card('Month by month', months.element),
        card('Hour of the day', hours.element),
      ),
      h(
        'div',
        { class: 'grid-2 review-lists' },
        card(
          'Top tracks',
          bars(
            r.topTracks.map((t) => ({
              ...ranked([t])[0]!,
              detail: t.artists.map((a) => a.name ?? 'unknown').join(', '),
            })),
            'review-top-tracks',
            'Top tracks',
          ),
        ),
        card('Top artists', bars(ranked(r.topArtists, 'artist'), 'review-top-artists', 'Top artists')),
        card('Top albums', bars(ranked(r.topAlbums, 'album'), 'review-top-albums', 'Top albums')),
        card(
          'Top genres',
          bars(ranked(r.topGenres.map((g) => ({ ...g, name: g.genre }))), 'review-top-genres', 'Top genres'),
        ),
      ),
    ],
  };
}

function reviewControls(
  ctx: ViewContext,
  r: Review,
  shown: { year: number; household: boolean },
  show: (year: number, household: boolean) => void,
  save: () => Promise<void>,
): HTMLElement {
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
  const button = (text: string, testid: string, run: () => void) =>
    h('button', { class: 'button small', testid, text, attrs: { type: 'button' }, on: { click: run } });
  const played = r.plays > 0;
  return h(
    'div',
    { class: 'review-controls no-print' },
    field('Year', picker),
    h('label', { class: 'check' }, everyone, h('span', { text: 'The whole household' })),
    played
      ? button('Save as picture', 'review-save-picture', () => {
          save().catch((error: unknown) => ctx.messages.error(error));
        })
      : null,
    played ? button('Print', 'review-print', () => window.print()) : null,
  );
}

function storyCard(
  ctx: ViewContext,
  c: StoryCard,
  urls: ObjectUrls,
  pictures: Map<StoryCard['key'], HTMLImageElement>,
): HTMLElement {
  let picture: HTMLImageElement | null = null;
  if (c.picture) {
    picture = coverImage(ctx, urls, c.picture.kind, c.picture.id, `story-picture ${c.picture.kind}`);
    pictures.set(c.key, picture);
  }
  const headline = c.link
    ? h('a', { text: c.headline, attrs: { href: hrefOf('listen', c.link) } })
    : c.headline;
  return h(
    'li',
    { class: `story-card story-${c.key}`, testid: 'story-card', attrs: { 'data-key': c.key } },
    picture,
    h(
      'div',
      { class: 'story-text' },
      h('p', { class: 'story-title', text: c.title }),
      h('p', { class: 'story-headline', testid: `story-${c.key}` }, headline),
      h('p', { class: 'story-detail', testid: `story-${c.key}-detail`, text: c.detail }),
    ),
  );
}

/** Who listened most, each member with their time and top artist. */
function membersCard(r: Review): HTMLElement {
  return card(
    'Who listened most',
    rankedBars(
      r.members.map((m) => ({
        label: m.username,
        value: m.plays,
        text: `${formatNumber(m.plays)} ${m.plays === 1 ? 'play' : 'plays'} · ${formatDuration(m.listeningMs)}`,
        ...(m.topArtist?.name ? { detail: `Top artist: ${m.topArtist.name}` } : {}),
      })),
      'review-members',
      `Plays per member, ${r.year}`,
    ),
  );
}
