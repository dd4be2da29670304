/**
 * Listen: Melon plays music itself. Browse albums (by name, artist, year, recently added, most
 * played), artists, playlists, Melon's mixes and genres, or search as you type; an album, artist,
 * playlist, mix or genre opens its own page (listen-pages.ts). The player stays at the bottom of
 * every view (player/player-bar.ts).
 */
import type { Page } from '../../server/contract/common.js';
import type { Album, Artist } from '../../server/contract/library.js';
import type { Genre } from '../../server/contract/listening.js';
import type { SearchResult } from '../../server/contract/playback.js';
import type { Track } from '../../server/contract/library.js';
import type { View, ViewContext } from '../context.js';
import { field, h, onInputSettled, replace, segmented, viewHeading } from '../dom.js';
import { deviceLabel, deviceName, setDeviceName } from '../player/device.js';
import { hrefOf, setParams } from '../route.js';
import { ObjectUrls } from '../ui/pictures.js';
import { listSection, section } from '../ui/section.js';
import { albumCard, coverImage, trackList } from './listen-parts.js';
import { detailPage, type Collection } from './listen-pages.js';

const PAGE = 60;
type Tab = 'albums' | 'artists' | 'playlists' | 'mixes' | 'genres';
const SORTS = [
  { value: 'name', label: 'Name' },
  { value: 'artist', label: 'Artist' },
  { value: 'year', label: 'Year' },
  { value: 'added', label: 'Recently added' },
  { value: 'played', label: 'Most played' },
];

export const listenView: View = (ctx, root) => {
  const urls = new ObjectUrls();
  const detail = detailPage(ctx, root, urls);
  if (detail)
    return () => {
      detail();
      urls.revokeAll();
    };
  const tab = (ctx.params.get('tab') as Tab | null) ?? 'albums';
  const sort = SORTS.some((s) => s.value === ctx.params.get('sort')) ? ctx.params.get('sort')! : 'name';
  const playAlbum = async (album: Album) => {
    try {
      ctx.player?.play(await ctx.api.json<Track[]>(`/api/albums/${encodeURIComponent(album.id)}/tracks`));
    } catch (error) {
      ctx.messages.error(error);
    }
  };

  const search = h('input', {
    class: 'listen-search',
    testid: 'listen-search',
    attrs: { type: 'search', autocomplete: 'off', placeholder: 'Songs, albums, artists' },
  });
  const results = h('div', {
    class: 'search-results',
    testid: 'search-results',
    attrs: { 'aria-live': 'polite' },
  });
  const browse = h('div', { class: 'listen-browse' });
  const tabs = segmented<Tab>(
    [
      { kind: 'albums', label: 'Albums' },
      { kind: 'artists', label: 'Artists' },
      { kind: 'playlists', label: 'Playlists' },
      { kind: 'mixes', label: 'Mixes' },
      { kind: 'genres', label: 'Genres' },
    ],
    'listen-tabs',
    (kind) => {
      setParams('listen', { tab: kind === 'albums' ? null : kind });
      show(kind);
    },
    'Browse by',
  );

  const albumsSection = (genre: string | null, order: string) => {
    let page = 0;
    const grid = h('ul', { class: 'album-grid', testid: 'album-grid' });
    const more = h('button', {
      class: 'button',
      testid: 'albums-more',
      text: 'Show more',
      attrs: { type: 'button', hidden: true },
      on: { click: () => void load() },
    });
    const load = async () => {
      const result = await ctx.api.json<Page<Album>>('/api/albums', {
        query: { sort: order, genre, page, count: PAGE },
      });
      grid.append(...result.items.map((album) => albumCard(ctx, urls, album, playAlbum)));
      page += 1;
      more.hidden = page * PAGE >= result.total;
      return result;
    };
    return section<Page<Album>>({
      testid: 'listen-albums',
      label: 'albums',
      load,
      isEmpty: (result) => result.total === 0,
      empty: 'No albums yet. Once Melon has read the music folder, they show here.',
      render: () => [grid, more],
    });
  };

  const show = (kind: Tab) => {
    tabs.mark(kind);
    if (kind === 'albums') {
      const select = h(
        'select',
        {
          testid: 'album-sort',
          on: {
            change: () => {
              setParams('listen', { sort: select.value === 'name' ? null : select.value });
              show('albums');
            },
          },
        },
        ...SORTS.map((s) =>
          h('option', { text: s.label, attrs: { value: s.value, selected: s.value === currentSort() } }),
        ),
      );
      const albums = albumsSection(null, currentSort());
      replace(browse, h('div', { class: 'listen-toolbar' }, field('Sort by', select)), albums.element);
      void albums.reload();
    } else if (kind === 'artists') {
      const artists = section<Page<Artist>>({
        testid: 'listen-artists',
        label: 'artists',
        load: () => ctx.api.json<Page<Artist>>('/api/artists', { query: { count: 500 } }),
        isEmpty: (page) => page.total === 0,
        empty: 'No artists yet.',
        render: (page) =>
          h(
            'ul',
            { class: 'album-grid artist-grid' },
            ...page.items.map((artist) =>
              h(
                'li',
                { class: 'album-card artist-card', testid: 'artist-card' },
                h(
                  'a',
                  { class: 'album-open', attrs: { href: hrefOf('listen', { artist: artist.id }) } },
                  coverImage(ctx, urls, 'artist', artist.id, 'cover round'),
                  h('span', { class: 'album-name', text: artist.name }),
                ),
                h('span', {
                  class: 'album-artist muted',
                  text: `${artist.albumCount} albums · ${artist.trackCount} tracks`,
                }),
              ),
            ),
          ),
      });
      replace(browse, artists.element);
      void artists.reload();
    } else if (kind === 'playlists' || kind === 'mixes') {
      const lists = section<Page<Collection> | { items: Collection[] }>({
        testid: `listen-${kind}`,
        label: kind,
        load: () =>
          ctx.api.json(kind === 'mixes' ? '/api/mixes' : '/api/playlists', {
            // Hidden mixes too, marked, so a member can open one and show it again.
            query: kind === 'mixes' ? { includeHidden: true } : { count: 500 },
          }),
        isEmpty: (page) => page.items.length === 0,
        empty:
          kind === 'mixes'
            ? 'No mixes yet. Melon makes them from what the household plays.'
            : 'No playlists yet. Make one in a Subsonic app on your phone; it shows here.',
        render: (page) =>
          h(
            'ul',
            { class: 'plain-list' },
            ...page.items.map((item) =>
              h(
                'li',
                { class: 'list-row' },
                h('a', {
                  text: item.name,
                  attrs: { href: hrefOf('listen', { [kind === 'mixes' ? 'mix' : 'playlist']: item.id }) },
                }),
                h('span', {
                  class: 'muted',
                  text: ` · ${item.trackIds.length} tracks${item.hidden ? ' · hidden' : ''}`,
                }),
              ),
            ),
          ),
      });
      replace(browse, lists.element);
      void lists.reload();
    } else {
      const genres = listSection<Genre>({
        testid: 'listen-genres',
        label: 'genres',
        load: () => ctx.api.json<Genre[]>('/api/genres'),
        empty: 'No genres: the music has no genre tags.',
        list: { class: 'genre-list' },
        item: (genre) =>
          h(
            'li',
            {},
            h('a', {
              class: 'genre-chip',
              text: genre.name,
              attrs: { href: hrefOf('listen', { genre: genre.name }) },
            }),
            h('span', { class: 'muted', text: ` ${genre.albumCount} albums` }),
          ),
      });
      replace(browse, genres.element);
      void genres.reload();
    }
  };
  const currentSort = () => new URLSearchParams(location.hash.split('?')[1] ?? '').get('sort') ?? sort;

  let searchRun = 0;
  const runSearch = async () => {
    const q = search.value.trim();
    const mine = ++searchRun;
    if (!q) {
      replace(results);
      browse.hidden = false;
      return;
    }
    try {
      const found = await ctx.api.json<SearchResult>('/api/search', { query: { q, count: 12 } });
      if (mine !== searchRun) return;
      browse.hidden = true;
      replace(results, ...searchResults(ctx, urls, found, playAlbum));
    } catch (error) {
      if (mine === searchRun) ctx.messages.error(error);
    }
  };
  const stopSearch = onInputSettled(search, 250, () => void runSearch());

  const nameInput = h('input', {
    testid: 'device-name',
    attrs: { type: 'text', maxlength: 100, value: deviceName(), autocomplete: 'off' },
  });
  const nameShown = h('small', {
    testid: 'device-label',
    text: `Plays from here count as “${deviceLabel()}”.`,
  });
  nameInput.addEventListener('change', () => {
    setDeviceName(nameInput.value);
    nameShown.textContent = `Plays from here count as “${deviceLabel()}”.`;
  });

  replace(
    root,
    viewHeading('Listen'),
    h('div', { class: 'listen-top' }, field('Search', search), tabs.element),
    results,
    browse,
    ctx.player && ctx.session.role !== 'Pass'
      ? h('div', { class: 'device-name card' }, field('Name this browser', nameInput), nameShown)
      : null,
  );
  show(tab);
  return () => {
    stopSearch();
    searchRun++;
    urls.revokeAll();
  };
};

function searchResults(
  ctx: ViewContext,
  urls: ObjectUrls,
  found: SearchResult,
  playAlbum: (album: Album) => Promise<void>,
): HTMLElement[] {
  if (found.tracks.length + found.albums.length + found.artists.length === 0)
    return [h('p', { class: 'muted', testid: 'search-empty', text: 'Nothing matches. Try fewer letters.' })];
  return [
    found.tracks.length ? h('h2', { text: 'Songs' }) : null,
    found.tracks.length
      ? trackList(ctx.player, found.tracks, { showAlbum: true, testid: 'search-tracks' })
      : null,
    found.albums.length ? h('h2', { text: 'Albums' }) : null,
    found.albums.length
      ? h(
          'ul',
          { class: 'album-grid' },
          ...found.albums.map((album) => albumCard(ctx, urls, album, playAlbum)),
        )
      : null,
    found.artists.length ? h('h2', { text: 'Artists' }) : null,
    found.artists.length
      ? h(
          'ul',
          { class: 'plain-list' },
          ...found.artists.map((artist) =>
            h(
              'li',
              { class: 'list-row' },
              h('a', { text: artist.name, attrs: { href: hrefOf('listen', { artist: artist.id }) } }),
            ),
          ),
        )
      : null,
  ].filter((item): item is HTMLElement => item !== null);
}
