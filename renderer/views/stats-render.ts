import { activityChart, heatmap, rankedBars, type Chart, type Ranked } from '../charts.js';
import { h, type Child } from '../dom.js';
import { formatChange, formatDuration, formatNumber } from '../format.js';
import { hrefOf } from '../route.js';
import { recentPlays } from './recent-plays.js';
import { plays } from '../plural.js';
import type { HouseholdStats, PersonStats, Previous, Ref, TopGenre, TopItem } from '../stats-data.js';
import { topList, type LazyCovers } from './top-list.js';

/** The statistics' content: one person's, or everyone's. Charts are returned so the view can destroy them. */
export interface Rendered {
  nodes: Child[];
  charts: Chart[];
}

const names = (refs: Ref[] | undefined, unknown = 'unknown artist') =>
  (refs ?? []).map((ref) => ref.name ?? unknown).join(', ');

function figure(value: string, label: string, testid: string, change?: string | null): HTMLElement {
  return h(
    'div',
    { class: 'figure' },
    h('span', { class: 'figure-value', testid, text: value }),
    h('span', { class: 'muted', text: label }),
    change ? h('span', { class: 'figure-change', testid: `${testid}-change`, text: change }) : null,
  );
}

/** Listening time and plays, each with its change from the period before ("+18% vs last month"). */
function timeFigures(now: { totalMs: number; plays: number }, previous: Previous | null, everyone = false) {
  const change = (key: 'totalMs' | 'plays') =>
    previous && formatChange(now[key], previous[key], previous.label);
  return [
    figure(
      formatDuration(now.totalMs),
      everyone ? 'listening time, everyone' : 'listening time',
      'stats-listening-time',
      change('totalMs'),
    ),
    figure(formatNumber(now.plays), now.plays === 1 ? 'play' : 'plays', 'stats-plays', change('plays')),
  ];
}

function panel(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'card' }, h('h2', { text: title }), ...children);
}

function stripPanel(title: string, ...children: Child[]): HTMLElement {
  return h(
    'section',
    { class: 'card strip', testid: 'top-genres-card' },
    h('h2', { text: title }),
    ...children,
  );
}

function emptyLine(testid: string, text = 'No plays in this range.'): HTMLElement {
  return h('p', { class: 'muted', testid, text });
}

/** Days listened and new artists (artists first heard in the range). */
/** The genres as bars by their plays, each written and linked by `describe`, or the empty line. */
function topGenres(
  genres: readonly TopGenre[],
  who: string,
  describe: (genre: TopGenre) => Pick<Ranked, 'text' | 'href'>,
): HTMLElement {
  if (!genres.length) return emptyLine('top-genres-empty');
  const rows = genres.map((genre) => ({ label: genre.genre, value: genre.plays, ...describe(genre) }));
  return rankedBars(rows, 'top-genres', `Top genres of ${who}`);
}

function dayAndArtistFigures({ daysListened, newArtists }: { daysListened: number; newArtists: number }) {
  return [
    figure(formatNumber(daysListened), daysListened === 1 ? 'day listened' : 'days listened', 'stats-days'),
    figure(formatNumber(newArtists), newArtists === 1 ? 'new artist' : 'new artists', 'stats-new-artists'),
  ];
}

/** Whether a name names an artist: files without an artist tag are filed under "Unknown Artist". */
export const isNamedArtist = (name: string | null | undefined): name is string =>
  !!name && name.trim() !== '' && !/^unknown artist$/i.test(name.trim());

/** The headline's top artist: files without an artist tag are not anyone's favourite artist. */
function topArtistName(artists: readonly TopItem[]): string {
  return artists.find((artist) => isNamedArtist(artist.name))?.name ?? '—';
}

/** The picture of a top-list row: a track's album cover, the album's, the artist's. */
function coverOf(
  list: 'top-tracks' | 'top-albums' | 'top-artists',
  item: TopItem,
): { kind: 'album' | 'artist'; id: string } | undefined {
  if (list === 'top-artists') return item.id ? { kind: 'artist', id: item.id } : undefined;
  if (list === 'top-albums') return item.id ? { kind: 'album', id: item.id } : undefined;
  return item.album?.id ? { kind: 'album', id: item.album.id } : undefined;
}

/** Where a top-list row opens in Listen: a track's album, the album, the artist. */
function listenHref(list: 'top-tracks' | 'top-albums' | 'top-artists', item: TopItem): string | undefined {
  if (list === 'top-artists') return item.id ? hrefOf('listen', { artist: item.id }) : undefined;
  if (list === 'top-albums') return item.id ? hrefOf('listen', { album: item.id }) : undefined;
  return item.album?.id ? hrefOf('listen', { album: item.album.id }) : undefined;
}

export function renderPerson(stats: PersonStats, who: string, covers: LazyCovers): Rendered {
  const chart = activityChart(stats.activity, stats.step, `Plays per ${stats.step}`, 'chart-activity');
  const figures = (item: { plays: number; listeningMs: number }) => ({
    value: item.plays,
    figure: plays(item.plays),
    figureDetail: formatDuration(item.listeningMs),
  });
  const lists = (
    [
      [stats.tracks, 'unknown track', 'top-tracks', 'Top tracks'],
      [stats.albums, 'unknown album', 'top-albums', 'Top albums'],
      [stats.artists, 'unknown artist', 'top-artists', 'Top artists'],
    ] as const
  ).map(([items, unnamed, testid, title]) =>
    panel(
      title,
      items.length
        ? topList(
            items.map((item) => ({
              title: item.name ?? unnamed,
              detail: item.artists
                ? [names(item.artists), item.album?.name].filter(Boolean).join(' · ')
                : undefined,
              cover: coverOf(testid, item),
              href: listenHref(testid, item),
              ...figures(item),
            })),
            covers,
            testid,
            `${title} of ${who}`,
          )
        : emptyLine(`${testid}-empty`),
    ),
  );
  // Genres run across the page as a strip under the three lists, so no card sits alone with one row.
  const genres = stripPanel(
    'Top genres',
    topGenres(stats.genres, who, (genre) => ({
      text: `${plays(genre.plays)} · ${formatDuration(genre.listeningMs)}`,
      href: hrefOf('listen', { genre: genre.genre }),
    })),
  );
  return {
    charts: [chart],
    nodes: [
      h(
        'section',
        { class: 'card summary', attrs: { 'aria-label': 'Summary' } },
        ...timeFigures(stats.time, stats.previous),
        ...dayAndArtistFigures(stats.time),
        figure(topArtistName(stats.artists), 'top artist', 'stats-top-artist'),
      ),
      panel('Activity', stats.time.plays ? chart.element : emptyLine('chart-activity-empty')),
      h('div', { class: 'top-lists', testid: 'top-lists' }, ...lists, genres),
      panel(
        'When',
        stats.time.plays ? heatmap(stats.heatmap, 'stats-heatmap') : emptyLine('stats-heatmap-empty'),
      ),
      panel(
        'Recent plays',
        stats.recent.length
          ? recentPlays(stats.recent, names)
          : emptyLine('recent-plays-empty', 'Nothing played yet.'),
      ),
    ],
  };
}

export function renderHousehold(stats: HouseholdStats): Rendered {
  const chart = activityChart(
    stats.activity,
    stats.step,
    `Everyone’s plays per ${stats.step}`,
    'chart-activity',
  );
  const top = stats.people[0];
  return {
    charts: [chart],
    nodes: [
      h(
        'section',
        { class: 'card summary', attrs: { 'aria-label': 'Summary' } },
        ...timeFigures(stats, stats.previous, true),
        ...dayAndArtistFigures(stats.facts),
        figure(top && top.time.plays > 0 ? top.member.username : '—', 'listened most', 'stats-top-person'),
      ),
      panel(
        'People',
        stats.people.length
          ? rankedBars(
              stats.people.map(({ member, time }) => ({
                label: member.username + (member.self ? ' (you)' : ''),
                value: time.totalMs,
                text: `${formatDuration(time.totalMs)} · ${plays(time.plays)}`,
              })),
              'household-people',
              'Listening time per person',
            )
          : emptyLine('household-people-empty', 'Nobody shares their statistics yet.'),
        stats.hidden.length
          ? h('p', {
              class: 'muted',
              testid: 'household-private',
              text: `${stats.hidden.map((member) => member.username).join(', ')} ${stats.hidden.length === 1 ? 'keeps their' : 'keep their'} statistics private.`,
            })
          : null,
      ),
      panel('Activity', stats.plays ? chart.element : emptyLine('chart-activity-empty')),
      h(
        'div',
        { class: 'grid-2' },
        panel(
          'Shared favourites',
          stats.favourites.length
            ? rankedBars(
                stats.favourites.map((favourite) => ({
                  label: favourite.name,
                  value: favourite.plays,
                  detail: `${favourite.artists} · ${favourite.people.join(', ')}`,
                  text: plays(favourite.plays),
                })),
                'household-favourites',
                'Tracks several people play',
              )
            : emptyLine('household-favourites-empty', 'No track is a favourite of two people yet.'),
        ),
        panel(
          'Top genres',
          topGenres(stats.genres, 'everyone', (genre) => ({ text: plays(genre.plays) })),
        ),
      ),
      panel('When', stats.plays ? heatmap(stats.heatmap, 'stats-heatmap') : emptyLine('stats-heatmap-empty')),
    ],
  };
}
