import type {
  ActivityStep,
  ListeningTime,
  RecentPlay,
  StatsRef,
  TopAlbum,
  TopArtist,
  TopGenre,
  TopTrack,
} from '../../server/contract/stats.js';
import type { User } from '../../server/contract/users.js';
import { errorText } from '../api.js';
import { barChart, lineChart } from '../charts.js';
import type { View } from '../context.js';
import { card, field, h, onInputSettled, replace, segmented } from '../dom.js';
import { formatDateTime, formatDuration, rangeQuery, type RangeKind } from '../format.js';

type Ref = StatsRef;
type UserSummary = Pick<User, 'id' | 'username'>;

const RANGES: { kind: RangeKind; label: string }[] = [
  { kind: 'week', label: 'This week' },
  { kind: 'month', label: 'This month' },
  { kind: 'year', label: 'This year' },
  { kind: 'all', label: 'All time' },
  { kind: 'custom', label: 'Custom' },
];

const artistsOf = (refs: Ref[]) => refs.map((ref) => ref.name ?? 'unknown artist').join(', ');

/** A top track's or album's row: its name, then its artists and plays. */
const playsRow =
  (unnamed: string) =>
  (entry: TopTrack | TopAlbum): [string, string] => [
    entry.name ?? unnamed,
    `${artistsOf(entry.artists)} · ${entry.plays} plays`,
  ];

/** Statistics: the signed-in user's, or any user's for an admin. */
export const statsView: View = (ctx, root) => {
  let range: RangeKind = 'month';
  let generation = 0;
  const userPicker = h('select', { testid: 'stats-user', attrs: { 'aria-label': 'User' } });
  userPicker.appendChild(
    h('option', { text: `${ctx.session.username} (you)`, attrs: { value: ctx.session.userId } }),
  );
  const from = h('input', { testid: 'stats-from', attrs: { type: 'date', 'aria-label': 'From' } });
  const to = h('input', { testid: 'stats-to', attrs: { type: 'date', 'aria-label': 'To' } });
  const custom = h('div', { class: 'custom-range' }, field('From', from), field('To', to));
  const device = h('input', {
    testid: 'stats-device',
    attrs: { placeholder: 'All devices', 'aria-label': 'Device' },
  });
  const ranges = segmented(RANGES, 'stats-range', (kind) => {
    range = kind;
    void load();
  });

  const body = h('div', { class: 'stats-body', testid: 'stats-body' });
  for (const control of [userPicker, from, to]) control.addEventListener('change', () => void load());
  const cancelDeviceInput = onInputSettled(device, 400, () => void load());

  replace(
    root,
    card(
      'Listening statistics',
      h(
        'div',
        { class: 'stats-controls' },
        ctx.session.role === 'Admin' ? field('User', userPicker) : null,
        ranges.element,
        custom,
        field('Device', device),
      ),
    ),
    body,
  );

  async function loadUsers(): Promise<void> {
    if (ctx.session.role !== 'Admin') return;
    try {
      const users = await ctx.api.json<UserSummary[]>('/api/users');
      for (const user of users) {
        if (user.id === ctx.session.userId) continue;
        userPicker.appendChild(h('option', { text: user.username, attrs: { value: user.id } }));
      }
    } catch (error) {
      ctx.messages.error(errorText(error));
    }
  }

  async function load(): Promise<void> {
    const mine = ++generation;
    ranges.mark(range);
    custom.hidden = range !== 'custom';
    const { step, ...dates } = rangeQuery(range, new Date(), { from: from.value, to: to.value });
    const query = {
      userId: userPicker.value || undefined,
      device: device.value.trim() || undefined,
      ...dates,
    };
    const top = { ...query, count: 10 };
    body.setAttribute('aria-busy', 'true');
    try {
      const [time, tracks, albums, artists, genres, activity, recent] = await Promise.all([
        ctx.api.json<ListeningTime>('/api/stats/listening-time', { query }),
        ctx.api.json<TopTrack[]>('/api/stats/top-tracks', { query: top }),
        ctx.api.json<TopAlbum[]>('/api/stats/top-albums', { query: top }),
        ctx.api.json<TopArtist[]>('/api/stats/top-artists', { query: top }),
        ctx.api.json<TopGenre[]>('/api/stats/top-genres', { query: top }),
        ctx.api.json<ActivityStep[]>('/api/stats/activity', { query: { ...query, step } }),
        ctx.api.json<RecentPlay[]>('/api/stats/recent-tracks', {
          query: { userId: query.userId, device: query.device, count: 15 },
        }),
      ]);
      if (mine !== generation) return; // a newer selection is loading
      replace(
        body,
        h(
          'section',
          { class: 'card summary' },
          h(
            'div',
            { class: 'figure' },
            h('span', {
              class: 'figure-value',
              testid: 'stats-listening-time',
              text: formatDuration(time.totalMs),
            }),
            h('span', { class: 'muted', text: 'listening time' }),
          ),
          h(
            'div',
            { class: 'figure' },
            h('span', { class: 'figure-value', testid: 'stats-plays', text: String(time.plays) }),
            h('span', { class: 'muted', text: 'plays' }),
          ),
          h(
            'div',
            { class: 'figure' },
            h('span', { class: 'figure-value', testid: 'stats-top-artist', text: artists[0]?.name ?? '—' }),
            h('span', { class: 'muted', text: 'top artist' }),
          ),
        ),
        h(
          'section',
          { class: 'card' },
          h('h3', { text: step === 'day' ? 'Listening time per day' : `Listening time per ${step}` }),
          lineChart(
            activity.map((entry) => ({
              label: new Date(entry.start).toLocaleDateString(),
              value: entry.listeningMs / 60_000,
              text: `${formatDuration(entry.listeningMs)}, ${entry.plays} plays`,
            })),
            'chart-activity',
            'Listening time',
            ' min',
          ),
        ),
        h(
          'section',
          { class: 'card' },
          h('h3', { text: 'Top artists' }),
          artists.length
            ? barChart(
                artists.map((artist) => ({
                  label: artist.name ?? 'unknown',
                  value: artist.plays,
                  text: `${artist.plays} plays`,
                })),
                'chart-top-artists',
                'Top artists by plays',
              )
            : h('p', { class: 'muted', testid: 'chart-top-artists-empty', text: 'No plays in this range.' }),
        ),
        h(
          'div',
          { class: 'grid-2' },
          topList('Top tracks', 'top-tracks', tracks.map(playsRow('unknown track'))),
          topList('Top albums', 'top-albums', albums.map(playsRow('unknown album'))),
          topList(
            'Top artists',
            'top-artists',
            artists.map((artist) => [
              artist.name ?? 'unknown artist',
              `${artist.plays} plays · ${formatDuration(artist.listeningMs)}`,
            ]),
          ),
          topList(
            'Top genres',
            'top-genres',
            genres.map((genre) => [genre.genre, `${genre.plays} plays`]),
          ),
        ),
        topList(
          'Recent plays',
          'recent-plays',
          recent.map((play) => [
            play.track.name ?? 'unknown track',
            `${artistsOf(play.track.artists)} · ${formatDateTime(play.playedAt)}${play.device ? ` · ${play.device}` : ''}`,
          ]),
          'ul',
        ),
      );
    } catch (error) {
      if (mine !== generation) return;
      replace(body, h('p', { class: 'card error-text', testid: 'stats-error', text: errorText(error) }));
      ctx.messages.error(errorText(error));
    } finally {
      // An older selection finishing must not mark the newer one, still loading, as done.
      if (mine === generation) body.removeAttribute('aria-busy');
    }
  }

  void loadUsers();
  void load();
  return () => {
    generation++;
    cancelDeviceInput();
  };
};

function topList(
  title: string,
  testid: string,
  rows: [string, string][],
  tag: 'ol' | 'ul' = 'ol',
): HTMLElement {
  const list = h(tag, { class: 'top-list', testid });
  if (rows.length === 0) list.appendChild(h('li', { class: 'muted', text: 'Nothing yet.' }));
  for (const [name, detail] of rows) {
    list.appendChild(
      h(
        'li',
        { testid: `${testid}-item` },
        h('span', { class: 'top-name', text: name }),
        h('small', { class: 'muted', text: detail }),
      ),
    );
  }
  return h('section', { class: 'card' }, h('h3', { text: title }), list);
}
