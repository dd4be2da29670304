import type { View } from '../context.js';
import { h, replace, viewHeading } from '../dom.js';
import { formatDuration, formatNumber } from '../format.js';
import { plays } from '../plural.js';
import { hrefOf } from '../route.js';
import { ObjectUrls } from '../ui/pictures.js';
import { loadWall, type WallData } from '../wall-data.js';
import { timeLabel } from './recent-plays.js';
import { LazyCovers, topList } from './top-list.js';

/** How often the wall reads again: calm enough for a screen left on all day, soon enough for "now". */
export const WALL_REFRESH_MS = 60_000;

/**
 * A Pass account's view as a wall display (a tablet in the hall, a TV): what is playing now, the
 * household's plays today and this week's top albums, in type readable across a room. It reads
 * again every minute while it is shown, not while the tab is hidden, and at once when it is shown
 * again. "All statistics" opens the ordinary view on everyone.
 */
export const wallView: View = (ctx, root) => {
  const updated = h('p', {
    class: 'muted wall-updated',
    testid: 'wall-updated',
    attrs: { 'aria-live': 'off' },
  });
  const content = h('div', { class: 'wall-content', testid: 'wall-content' });
  replace(
    root,
    h(
      'div',
      { class: 'wall', testid: 'wall' },
      h(
        'div',
        { class: 'wall-top' },
        viewHeading('At home now'),
        h('a', {
          class: 'button',
          text: 'All statistics',
          attrs: { href: hrefOf('stats', { user: 'everyone' }) },
        }),
      ),
      content,
      updated,
    ),
  );
  let urls = new ObjectUrls();
  let covers = new LazyCovers(ctx.api, urls);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let gone = false;
  let loading = false;

  async function refresh(): Promise<void> {
    if (gone || loading) return;
    loading = true;
    clearTimeout(timer);
    try {
      const data = await loadWall(ctx.api);
      if (gone) return;
      // The new pictures first, then the old ones go: no blank frame between two readings.
      const previous = { urls, covers };
      urls = new ObjectUrls();
      covers = new LazyCovers(ctx.api, urls);
      draw(data);
      previous.covers.disconnect();
      previous.urls.revokeAll();
      updated.textContent = `Updated ${new Date().toLocaleTimeString(document.documentElement.lang || 'en', {
        hour: '2-digit',
        minute: '2-digit',
      })}`;
      updated.classList.remove('error-text');
    } catch {
      if (gone) return;
      // What was shown stays: a wall that goes blank on a network hiccup is worse than a stale one.
      updated.textContent = 'Couldn’t update just now; trying again in a minute.';
    } finally {
      loading = false;
      schedule();
    }
  }

  function schedule(): void {
    clearTimeout(timer);
    if (!gone && !document.hidden) timer = setTimeout(() => void refresh(), WALL_REFRESH_MS);
  }

  function visibility(): void {
    if (document.hidden) clearTimeout(timer);
    else void refresh();
  }
  document.addEventListener('visibilitychange', visibility);

  function draw(data: WallData): void {
    const now = new Date();
    replace(
      content,
      h(
        'section',
        { class: 'card wall-now', attrs: { 'aria-labelledby': 'wall-now-title' } },
        h('h2', { text: 'Playing now', attrs: { id: 'wall-now-title' } }),
        data.nowPlaying.length
          ? h(
              'ul',
              { class: 'wall-playing', testid: 'wall-now-playing' },
              ...data.nowPlaying.map((entry) =>
                h(
                  'li',
                  { class: 'wall-playing-item', testid: 'wall-now-playing-item' },
                  entry.track.album ? covers.cover('album', entry.track.album.id, 'wall-cover') : null,
                  h(
                    'span',
                    { class: 'wall-playing-text' },
                    h('span', { class: 'wall-title', text: entry.track.name }),
                    h('span', {
                      class: 'wall-detail',
                      text: entry.track.artists.map((artist) => artist.name).join(', '),
                    }),
                    h('span', {
                      class: 'muted',
                      text: [entry.username, entry.client].filter(Boolean).join(' · '),
                    }),
                  ),
                ),
              ),
            )
          : h('p', {
              class: 'wall-quiet muted',
              testid: 'wall-now-playing-empty',
              text: 'Nothing is playing.',
            }),
      ),
      h(
        'section',
        { class: 'card wall-today', attrs: { 'aria-labelledby': 'wall-today-title' } },
        h('h2', { text: 'Today', attrs: { id: 'wall-today-title' } }),
        h(
          'p',
          { class: 'wall-figure' },
          h('span', {
            class: 'wall-figure-value',
            testid: 'wall-today-plays',
            text: formatNumber(data.today.plays),
          }),
          h('span', { text: data.today.plays === 1 ? ' play' : ' plays' }),
          data.today.totalMs
            ? h('span', { class: 'muted', text: ` · ${formatDuration(data.today.totalMs)}` })
            : null,
        ),
        data.today.latest.length
          ? h(
              'ol',
              { class: 'wall-latest', testid: 'wall-latest', attrs: { 'aria-label': 'Latest plays today' } },
              ...data.today.latest.map((play) =>
                h(
                  'li',
                  { testid: 'wall-latest-item' },
                  h('span', { class: 'wall-latest-track', text: play.track }),
                  h('span', {
                    class: 'muted',
                    text: `${play.artists} · ${play.username} · ${timeLabel(new Date(play.playedAt), now)}`,
                  }),
                ),
              ),
            )
          : null,
      ),
      h(
        'section',
        { class: 'card wall-week', attrs: { 'aria-labelledby': 'wall-week-title' } },
        h('h2', { text: 'This week’s top albums', attrs: { id: 'wall-week-title' } }),
        data.weekAlbums.length
          ? topList(
              data.weekAlbums.map((album) => ({
                title: album.name,
                detail: album.artists,
                cover: { kind: 'album' as const, id: album.id },
                href: hrefOf('listen', { album: album.id }),
                value: album.plays,
                figure: plays(album.plays),
                figureDetail: formatDuration(album.listeningMs),
              })),
              covers,
              'wall-week-albums',
              'This week’s top albums',
            )
          : h('p', { class: 'muted', testid: 'wall-week-albums-empty', text: 'No plays this week yet.' }),
      ),
    );
  }

  void refresh();
  return () => {
    gone = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', visibility);
    covers.disconnect();
    urls.revokeAll();
  };
};
