/**
 * The pages Listen opens: an album (its tracks with durations), an artist (picture, most played
 * tracks, albums), a playlist or mix, and a genre's albums. Each has Play, Shuffle, Play next and
 * Add to queue.
 */
import type { Album, Artist, Track, TrackList } from '../../server/contract/library.js';
import type { ViewContext } from '../context.js';
import { h, replace, type Child } from '../dom.js';
import { hrefOf } from '../route.js';
import type { ObjectUrls } from '../ui/pictures.js';
import { section } from '../ui/section.js';
import { albumCard, artistLinks, coverImage, playButtons, trackList, trackSummary } from './listen-parts.js';

/** A playlist or a mix, as the API lists them; `hidden` only for a mix. */
export interface Collection {
  id: string;
  name: string;
  description?: string | null;
  trackIds: string[];
  hidden?: boolean;
}

/**
 * Hides a mix from the caller's lists (here and in their Subsonic apps), or shows it again; the
 * button then says the other.
 */
function hideButton(ctx: ViewContext, mix: Collection, say: (text: string) => void): HTMLElement {
  let hidden = mix.hidden === true;
  const button = h('button', {
    class: 'button',
    testid: 'mix-hide',
    text: hidden ? 'Show in my lists' : 'Hide from my lists',
    attrs: { type: 'button' },
  });
  button.addEventListener('click', () => {
    void (async () => {
      try {
        await ctx.api.json(`/api/mixes/${hidden ? 'unhide' : 'hide'}`, {
          method: 'POST',
          json: { id: mix.id },
        });
        hidden = !hidden;
        button.textContent = hidden ? 'Show in my lists' : 'Hide from my lists';
        say(hidden ? `${mix.name} is hidden from your lists.` : `${mix.name} shows in your lists again.`);
      } catch (error) {
        ctx.messages.error(error);
      }
    })();
  });
  return button;
}

const back = () =>
  h('a', {
    class: 'back-link',
    testid: 'listen-back',
    text: '← All music',
    attrs: { href: hrefOf('listen') },
  });

/** Draws the page the address asks for, or returns null for the browse page. */
export function detailPage(ctx: ViewContext, root: HTMLElement, urls: ObjectUrls): (() => void) | null {
  const { params } = ctx;
  const album = params.get('album');
  const artist = params.get('artist');
  const list = params.get('playlist') ?? params.get('mix');
  const genre = params.get('genre');
  const say = (text: string) => ctx.messages.info(text);
  const fail = (error: unknown) => ctx.messages.error(error);
  let page: ReturnType<typeof section> | null = null;

  if (album) {
    page = section<{ album: Album; tracks: Track[] }>({
      testid: 'listen-album',
      label: 'the album',
      load: async () => {
        const id = encodeURIComponent(album);
        const [info, tracks] = await Promise.all([
          ctx.api.json<Album>(`/api/albums/${id}`),
          ctx.api.json<Track[]>(`/api/albums/${id}/tracks`),
        ]);
        return { album: info, tracks };
      },
      render: ({ album: info, tracks }) => {
        document.title = `${info.name} — Melon`;
        return [
          header(
            coverImage(ctx, urls, 'album', info.id, 'cover large'),
            info.name,
            [
              h('span', {}, ...artistLinks(info.artists)),
              info.year ? ` · ${info.year}` : null,
              ` · ${trackSummary(tracks)}`,
            ],
            playButtons(ctx.player, info.name, () => Promise.resolve(tracks), fail, say),
          ),
          trackList(ctx.player, tracks),
        ];
      },
    });
  } else if (artist) {
    page = section<{ artist: Artist; top: Track[]; albums: Album[] }>({
      testid: 'listen-artist',
      label: 'the artist',
      load: async () => {
        const id = encodeURIComponent(artist);
        const [info, top, albums] = await Promise.all([
          ctx.api.json<Artist>(`/api/artists/${id}`),
          ctx.api.json<Track[]>(`/api/artists/${id}/top-tracks`, { query: { count: 10 } }),
          ctx.api.json<Album[]>(`/api/artists/${id}/albums`),
        ]);
        return { artist: info, top, albums };
      },
      render: ({ artist: info, top, albums }) => {
        document.title = `${info.name} — Melon`;
        const playAlbum = async (item: Album) => {
          try {
            ctx.player?.play(
              await ctx.api.json<Track[]>(`/api/albums/${encodeURIComponent(item.id)}/tracks`),
            );
          } catch (error) {
            fail(error);
          }
        };
        return [
          header(
            coverImage(ctx, urls, 'artist', info.id, 'cover large round'),
            info.name,
            [`${info.albumCount} albums · ${info.trackCount} tracks`],
            playButtons(ctx.player, info.name, () => Promise.resolve(top), fail, say),
          ),
          h('h2', { text: 'Top songs' }),
          trackList(ctx.player, top, { showAlbum: true }),
          h('h2', { text: 'Albums' }),
          h('ul', { class: 'album-grid' }, ...albums.map((item) => albumCard(ctx, urls, item, playAlbum))),
        ];
      },
    });
  } else if (list) {
    const mix = params.has('mix');
    page = section<{ list: Collection; tracks: Track[] }>({
      testid: 'listen-playlist',
      label: mix ? 'the mix' : 'the playlist',
      // The list and all its tracks: two requests however long it is.
      load: async () => {
        const base = `/api/${mix ? 'mixes' : 'playlists'}/${encodeURIComponent(list)}`;
        const [info, tracks] = await Promise.all([
          ctx.api.json<Collection>(base),
          ctx.api.json<TrackList>(`${base}/tracks`),
        ]);
        return { list: info, tracks: tracks.items };
      },
      render: ({ list: info, tracks }) => {
        document.title = `${info.name} — Melon`;
        const buttons = playButtons(ctx.player, info.name, () => Promise.resolve(tracks), fail, say);
        if (mix) buttons.append(hideButton(ctx, info, say));
        return [
          header(
            null,
            info.name,
            [info.description ? `${info.description} · ` : null, trackSummary(tracks)],
            buttons,
          ),
          trackList(ctx.player, tracks, { showAlbum: true }),
        ];
      },
    });
  } else if (genre) {
    page = section<{ items: Album[] }>({
      testid: 'listen-genre',
      label: 'the genre',
      load: () => ctx.api.json<{ items: Album[] }>('/api/albums', { query: { genre, count: 500 } }),
      render: ({ items }) => {
        document.title = `${genre} — Melon`;
        const albumTracks = async () => {
          const lists = await Promise.all(
            items.map((item) => ctx.api.json<Track[]>(`/api/albums/${encodeURIComponent(item.id)}/tracks`)),
          );
          return lists
            .flat()
            .filter((track) => track.genres.some((g) => g.toLowerCase() === genre.toLowerCase()));
        };
        return [
          header(
            null,
            genre,
            [`${items.length} albums`],
            playButtons(ctx.player, genre, albumTracks, fail, say),
          ),
          h(
            'ul',
            { class: 'album-grid' },
            ...items.map((item) =>
              albumCard(ctx, urls, item, async (picked) => {
                try {
                  ctx.player?.play(
                    await ctx.api.json<Track[]>(`/api/albums/${encodeURIComponent(picked.id)}/tracks`),
                  );
                } catch (error) {
                  fail(error);
                }
              }),
            ),
          ),
        ];
      },
    });
  }
  if (!page) return null;
  replace(root, back(), page.element);
  void page.reload().then(() => root.querySelector<HTMLElement>('h1')?.focus());
  const shown = page;
  return () => shown.cancel();
}

function header(
  picture: HTMLElement | null,
  title: string,
  facts: Child[],
  buttons: HTMLElement,
): HTMLElement {
  return h(
    'header',
    { class: 'listen-header' },
    picture,
    h(
      'div',
      { class: 'listen-header-text' },
      h('h1', { class: 'view-heading', testid: 'view-heading', text: title, attrs: { tabindex: -1 } }),
      h('p', { class: 'muted' }, ...facts),
      buttons,
    ),
  );
}
