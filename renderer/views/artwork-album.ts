import {
  caption,
  groupAlbums,
  pictureLabel,
  slotsOf,
  type Album,
  type LibraryTrack,
} from '../album-model.js';
import { confirmDialog } from '../confirm.js';
import type { ViewContext } from '../context.js';
import { actionButton, clickButton, h, onInputSettled, replace } from '../dom.js';
import { count } from '../plural.js';
import { explain } from '../problems.js';
import { apiImage, enlarge, type ObjectUrls } from '../ui/pictures.js';
import { errorBox, placeholder } from '../ui/section.js';

const PAGE = 1000;

/**
 * Album-first artwork: a grid of albums with their covers; an album opens its tracks and their
 * pictures; a picture can go from one track or, in one action, from every track of the album.
 */
export function albumBrowser(
  ctx: ViewContext,
  urls: ObjectUrls,
): { element: HTMLElement; cancel: () => void } {
  let tracks: LibraryTrack[] = [];
  let albums: Album[] = [];
  let openId: string | null = null;
  const search = h('input', {
    testid: 'art-search',
    attrs: { type: 'search', placeholder: 'Album or track', 'aria-label': 'Search albums and tracks' },
  });
  const body = h('div', { class: 'art-albums', testid: 'art-albums' }, placeholder('albums', 'art-albums'));
  const cancelSearch = onInputSettled(search, 200, () => drawGrid());
  const element = h('div', {}, search, body);

  async function loadAll(): Promise<void> {
    try {
      const all: LibraryTrack[] = [];
      for (let page = 0; ; page++) {
        const result = await ctx.api.json<{ items: LibraryTrack[]; total: number }>('/api/tracks', {
          query: { count: PAGE, page },
        });
        all.push(...result.items);
        if (result.items.length < PAGE || all.length >= result.total) break;
      }
      tracks = all;
      albums = groupAlbums(tracks);
      if (openId !== null) drawAlbum(openId);
      else drawGrid();
    } catch (error) {
      replace(
        body,
        errorBox(error, 'art-albums', () => void loadAll()),
      );
    }
  }

  function drawGrid(): void {
    openId = null;
    search.hidden = false;
    const q = search.value.trim().toLowerCase();
    const shown = q
      ? albums.filter(
          (album) =>
            album.name.toLowerCase().includes(q) ||
            album.tracks.some((t) => t.name.toLowerCase().includes(q)),
        )
      : albums;
    if (shown.length === 0) {
      replace(
        body,
        h('p', {
          class: 'muted',
          testid: 'art-albums-empty',
          text: q ? 'No album or track matches.' : 'The library has no tracks yet.',
        }),
      );
      return;
    }
    replace(
      body,
      h(
        'ul',
        { class: 'album-grid', testid: 'art-album-grid' },
        ...shown.map((album) =>
          h(
            'li',
            {},
            h(
              'button',
              {
                class: 'album-card',
                testid: 'art-album',
                attrs: { type: 'button', 'data-id': album.id, 'data-name': album.name },
                on: { click: () => drawAlbum(album.id) },
              },
              apiImage(
                ctx.api,
                urls,
                album.coverTrack
                  ? `/api/art/track/${encodeURIComponent(album.coverTrack)}/0`
                  : '/api/art/default',
                '',
                'album-cover',
              ),
              h('span', { class: 'album-name', text: album.name }),
              h('small', { class: 'muted', text: album.artists }),
              h('small', {
                class: 'muted',
                testid: 'art-album-counts',
                text: `${count(album.tracks.length, 'track', 'tracks')} · ${count(album.pictures, 'picture', 'pictures')}`,
              }),
            ),
          ),
        ),
      ),
    );
  }

  function drawAlbum(id: string): void {
    const album = albums.find((candidate) => candidate.id === id);
    if (!album) return drawGrid();
    openId = id;
    search.hidden = true;
    const report = h('ul', {
      class: 'art-report',
      testid: 'art-album-report',
      attrs: { 'aria-live': 'polite' },
    });
    const slots = slotsOf(album);
    const heading = h('h2', {
      class: 'art-title',
      testid: 'art-title',
      text: album.name,
      attrs: { tabindex: -1 },
    });
    replace(
      body,
      clickButton('button small', 'art-back', '← All albums', () => drawGrid()),
      heading,
      h('p', {
        class: 'muted',
        text: `${album.artists} · ${count(album.tracks.length, 'track', 'tracks')} · ${count(album.pictures, 'picture', 'pictures')}`,
      }),
      slots.length
        ? h(
            'div',
            { class: 'album-actions' },
            h('h3', { text: 'From every track of the album' }),
            ...slots.map((slot) =>
              actionButton(
                `Delete the ${slot.type} (${pictureLabel(slot.pos).toLowerCase()}) from ${count(slot.trackIds.length, 'track', 'tracks')}`,
                'art-album-delete',
                () => deleteEverywhere(album, slot.pos, slot.trackIds, report),
                'button small danger',
              ),
            ),
          )
        : null,
      report,
      ...album.tracks.map((track) => trackSection(track)),
    );
    heading.focus();
  }

  function trackSection(track: LibraryTrack): HTMLElement {
    const grid = h('div', { class: 'thumbs', testid: 'art-track-thumbs' });
    if (track.artwork.length === 0) grid.appendChild(h('p', { class: 'muted', text: 'No pictures.' }));
    for (const art of track.artwork) {
      const src = `/api/art/track/${encodeURIComponent(track.id)}/${art.pos}`;
      const text = caption(art);
      grid.appendChild(
        h(
          'figure',
          { class: 'thumb', testid: 'art-thumb', attrs: { 'data-src': src } },
          h(
            'button',
            {
              class: 'thumb-open',
              testid: 'art-enlarge',
              attrs: { type: 'button', 'aria-label': `Enlarge ${text} of ${track.name}` },
              on: { click: () => enlarge(ctx.api, urls, src, `${track.name}: ${text}`) },
            },
            apiImage(ctx.api, urls, src, `${text} of ${track.name}`),
          ),
          h('figcaption', { testid: 'art-thumb-caption', text }),
          actionButton(
            'Delete',
            'art-delete',
            async () => {
              const ok = await confirmDialog(
                'Delete this picture?',
                `It is removed from the audio file of “${track.name}” itself. This cannot be undone.`,
                'Delete',
              );
              if (!ok) return;
              try {
                await ctx.api.json('/api/art/delete/track-art', {
                  method: 'POST',
                  fields: { id: track.id, pos: String(art.pos) },
                });
                ctx.messages.info('Picture deleted.');
              } catch (error) {
                ctx.messages.error(error);
              }
              await refresh([track.id]);
            },
            'button danger small',
          ),
        ),
      );
    }
    return h(
      'section',
      { class: 'art-group', testid: 'art-track', attrs: { 'data-name': track.name } },
      h('h3', { text: track.name }),
      grid,
    );
  }

  async function deleteEverywhere(
    album: Album,
    pos: number,
    trackIds: string[],
    report: HTMLElement,
  ): Promise<void> {
    const ok = await confirmDialog(
      `Delete ${pictureLabel(pos).toLowerCase()} from ${count(trackIds.length, 'track', 'tracks')}?`,
      `It is removed from each audio file of “${album.name}”. This cannot be undone.`,
      'Delete from every track',
    );
    if (!ok) return;
    const lines: HTMLElement[] = [];
    for (const id of trackIds) {
      const name = tracks.find((track) => track.id === id)?.name ?? id;
      try {
        await ctx.api.json('/api/art/delete/track-art', { method: 'POST', fields: { id, pos: String(pos) } });
        lines.push(h('li', { class: 'ok-text', testid: 'art-report-ok', text: `✓ ${name}` }));
      } catch (error) {
        lines.push(
          h('li', {
            class: 'error-text',
            testid: 'art-report-failed',
            text: `✗ ${name}: ${explain(error).text}`,
          }),
        );
      }
    }
    await refresh(trackIds);
    const fresh = body.querySelector('[data-testid="art-album-report"]');
    if (fresh) replace(fresh, ...lines);
    else replace(report, ...lines);
  }

  /** Re-reads changed tracks so counts, captions and thumbnails match the files. */
  async function refresh(ids: string[]): Promise<void> {
    const fresh = await Promise.all(
      ids.map((id) => ctx.api.json<LibraryTrack>(`/api/tracks/${encodeURIComponent(id)}`).catch(() => null)),
    );
    tracks = tracks.map((track) => fresh.find((candidate) => candidate?.id === track.id) ?? track);
    albums = groupAlbums(tracks);
    if (openId !== null) drawAlbum(openId);
    else drawGrid();
  }

  void loadAll();
  return { element, cancel: cancelSearch };
}
