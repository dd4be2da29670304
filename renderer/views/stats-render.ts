import { activityChart, heatmap, rankedBars, type Chart } from '../charts.js';
import { h, type Child } from '../dom.js';
import { formatDuration, formatNumber } from '../format.js';
import { hrefOf } from '../route.js';
import { recentPlays } from './recent-plays.js';
import { plays } from '../plural.js';
import type { HouseholdStats, PersonStats, Ref, TopItem } from '../stats-data.js';

/** The statistics' content: one person's, or everyone's. Charts are returned so the view can destroy them. */
export interface Rendered {
  nodes: Child[];
  charts: Chart[];
}

const names = (refs: Ref[] | undefined, unknown = 'unknown artist') =>
  (refs ?? []).map((ref) => ref.name ?? unknown).join(', ');

function figure(value: string, label: string, testid: string): HTMLElement {
  return h(
    'div',
    { class: 'figure' },
    h('span', { class: 'figure-value', testid, text: value }),
    h('span', { class: 'muted', text: label }),
  );
}

function panel(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'card' }, h('h2', { text: title }), ...children);
}

function emptyLine(testid: string, text = 'No plays in this range.'): HTMLElement {
  return h('p', { class: 'muted', testid, text });
}

/** The headline's top artist: files without an artist tag are not anyone's favourite artist. */
function topArtistName(artists: readonly TopItem[]): string {
  const named = artists.find((artist) => artist.name && !/^unknown artist$/i.test(artist.name.trim()));
  return named?.name ?? '—';
}

/** Where a top-list row opens in Listen: a track's album, the album, the artist. */
function listenHref(list: 'top-tracks' | 'top-albums' | 'top-artists', item: TopItem): string | undefined {
  if (list === 'top-artists') return item.id ? hrefOf('listen', { artist: item.id }) : undefined;
  if (list === 'top-albums') return item.id ? hrefOf('listen', { album: item.id }) : undefined;
  return item.album?.id ? hrefOf('listen', { album: item.album.id }) : undefined;
}

export function renderPerson(stats: PersonStats, who: string): Rendered {
  const chart = activityChart(stats.activity, stats.step, `Plays per ${stats.step}`, 'chart-activity');
  const ranked = <T extends { plays: number; listeningMs: number }>(
    items: T[],
    label: (item: T) => string,
    detail: (item: T) => string | undefined,
    testid: string,
    title: string,
    href: (item: T) => string | undefined = () => undefined,
  ) =>
    panel(
      title,
      items.length
        ? rankedBars(
            items.map((item) => ({
              label: label(item),
              value: item.plays,
              text: `${plays(item.plays)} · ${formatDuration(item.listeningMs)}`,
              detail: detail(item),
              href: href(item),
            })),
            testid,
            `${title} of ${who}`,
          )
        : emptyLine(`${testid}-empty`),
    );
  return {
    charts: [chart],
    nodes: [
      h(
        'section',
        { class: 'card summary', attrs: { 'aria-label': 'Summary' } },
        figure(formatDuration(stats.time.totalMs), 'listening time', 'stats-listening-time'),
        figure(formatNumber(stats.time.plays), stats.time.plays === 1 ? 'play' : 'plays', 'stats-plays'),
        figure(topArtistName(stats.artists), 'top artist', 'stats-top-artist'),
      ),
      panel('Activity', stats.time.plays ? chart.element : emptyLine('chart-activity-empty')),
      h(
        'div',
        { class: 'grid-2' },
        ...(
          [
            [stats.tracks, 'unknown track', 'top-tracks', 'Top tracks'],
            [stats.albums, 'unknown album', 'top-albums', 'Top albums'],
            [stats.artists, 'unknown artist', 'top-artists', 'Top artists'],
          ] as const
        ).map(([items, unnamed, testid, title]) =>
          ranked<TopItem>(
            items,
            (item) => item.name ?? unnamed,
            (item) =>
              item.artists ? [names(item.artists), item.album?.name].filter(Boolean).join(' · ') : undefined,
            testid,
            title,
            (item) => listenHref(testid, item),
          ),
        ),
        ranked(
          stats.genres,
          (genre) => genre.genre,
          () => undefined,
          'top-genres',
          'Top genres',
          (genre) => hrefOf('listen', { genre: genre.genre }),
        ),
      ),
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
        figure(formatDuration(stats.totalMs), 'listening time, everyone', 'stats-listening-time'),
        figure(formatNumber(stats.plays), stats.plays === 1 ? 'play' : 'plays', 'stats-plays'),
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
          stats.genres.length
            ? rankedBars(
                stats.genres.map((genre) => ({
                  label: genre.genre,
                  value: genre.plays,
                  text: plays(genre.plays),
                })),
                'top-genres',
                'Top genres of everyone',
              )
            : emptyLine('top-genres-empty'),
        ),
      ),
      panel('When', stats.plays ? heatmap(stats.heatmap, 'stats-heatmap') : emptyLine('stats-heatmap-empty')),
    ],
  };
}
