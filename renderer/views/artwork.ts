import {
  groupsFor,
  KINDS,
  summary,
  type Group,
  type Item,
  type Kind,
  type Picture,
} from '../artwork-model.js';
import { confirmDialog } from '../confirm.js';
import type { View, ViewContext } from '../context.js';
import { actionButton, card, h, onInputSettled, replace, segmented, viewHeading } from '../dom.js';
import { setParams } from '../route.js';
import { apiImage, enlarge, ObjectUrls, uploadZone } from '../ui/pictures.js';
import { errorBox } from '../ui/section.js';
import { albumBrowser } from './artwork-album.js';

/**
 * Artwork (Admin): albums first (covers, an album's tracks and their pictures, album-wide
 * deletion); artists' pictures and banners, playlist and collection artwork, the default artwork.
 */
export const artworkView: View = (ctx, root) => {
  const urls = new ObjectUrls();
  let cancelCurrent: () => void = () => undefined;
  const wanted = ctx.params.get('kind');
  let kind: Kind = KINDS.some((entry) => entry.kind === wanted) ? (wanted as Kind) : 'albums';
  const kinds = segmented(KINDS, 'art-kind', (next) => select(next, true), 'What artwork');
  const content = h('div', { class: 'art-content' });
  replace(root, viewHeading('Artwork'), card('Pictures', kinds.element, content));

  function select(next: Kind, push: boolean): void {
    kind = next;
    kinds.mark(next);
    if (push) setParams('artwork', { kind: next === 'albums' ? null : next });
    cancelCurrent();
    urls.revokeAll();
    if (next === 'albums') {
      const browser = albumBrowser(ctx, urls);
      cancelCurrent = browser.cancel;
      replace(content, browser.element);
    } else if (next === 'default') {
      cancelCurrent = () => undefined;
      void showDefault();
    } else {
      cancelCurrent = itemBrowser(next);
    }
  }

  /** Artists, playlists, collections: search, pick one, see and change its pictures. */
  function itemBrowser(listKind: Exclude<Kind, 'albums' | 'default'>): () => void {
    const search = h('input', {
      testid: 'art-search',
      attrs: { type: 'search', placeholder: 'Search by name', 'aria-label': `Search ${listKind}` },
    });
    const results = h('ul', { class: 'art-results', testid: 'art-results' });
    const detail = h('div', { class: 'art-detail', testid: 'art-detail' });
    replace(content, search, h('div', { class: 'art-layout' }, results, detail));
    const loadList = async () => {
      try {
        const page = await ctx.api.json<{ items: Item[]; total: number }>(`/api/${listKind}`, {
          query: { q: search.value.trim(), count: 50 },
        });
        if (kind !== listKind) return;
        replace(
          results,
          ...(page.items.length
            ? page.items.map((item) =>
                h(
                  'li',
                  {},
                  h(
                    'button',
                    {
                      class: 'art-item',
                      testid: 'art-item',
                      attrs: { type: 'button', 'data-id': item.id },
                      on: { click: () => void showItem(item.id) },
                    },
                    h('span', { text: item.name || '(untitled)' }),
                    h('small', { class: 'muted', text: summary(item) }),
                  ),
                ),
              )
            : [h('li', { class: 'muted', text: 'Nothing found.' })]),
          page.total > page.items.length
            ? h('li', { class: 'muted', text: `${page.total - page.items.length} more — refine the search.` })
            : null,
        );
      } catch (error) {
        replace(
          results,
          h(
            'li',
            {},
            errorBox(error, 'art-results', () => void loadList()),
          ),
        );
      }
    };
    const showItem = async (id: string) => {
      try {
        const item = await ctx.api.json<Item>(`/api/${listKind}/${encodeURIComponent(id)}`);
        if (kind !== listKind) return;
        drawGroups(detail, item.name || '(untitled)', groupsFor(listKind, item), async () => {
          await showItem(id);
          await loadList();
        });
      } catch (error) {
        replace(
          detail,
          errorBox(error, 'art-detail', () => void showItem(id)),
        );
      }
    };
    void loadList();
    return onInputSettled(search, 250, () => void loadList());
  }

  async function showDefault(): Promise<void> {
    try {
      const { headers } = await ctx.api.image('/api/art/default');
      const custom = headers.get('X-Melon-Artwork') === 'custom';
      const [group] = groupsFor('default', null);
      drawGroups(
        content,
        custom ? 'Your default artwork' : 'The built-in default artwork',
        [
          {
            ...group!,
            pictures: group!.pictures.map((picture) => ({ ...picture, deletable: custom })),
            title: custom
              ? 'Shown where an item has no picture. Delete it to use the built-in one again.'
              : 'Shown where an item has no picture. It is built into Melon and cannot be deleted; upload your own to replace it.',
          },
        ],
        showDefault,
      );
    } catch (error) {
      replace(
        content,
        errorBox(error, 'art-default', () => void showDefault()),
      );
    }
  }

  function drawGroups(
    target: HTMLElement,
    title: string,
    groups: Group[],
    reload: () => Promise<void>,
  ): void {
    urls.revokeAll();
    const heading = h('h2', {
      class: 'art-title',
      testid: 'art-title',
      text: title,
      attrs: { tabindex: -1 },
    });
    replace(
      target,
      heading,
      ...groups.map((group) => {
        const grid = h('div', { class: 'thumbs', testid: `${group.testid}-thumbs` });
        if (group.pictures.length === 0) grid.appendChild(h('p', { class: 'muted', text: 'No pictures.' }));
        for (const picture of group.pictures) grid.appendChild(thumb(ctx, urls, picture, reload));
        return h(
          'section',
          { class: 'art-group', testid: group.testid },
          h('h3', { text: group.title }),
          grid,
          group.upload ? uploadFor(ctx, group.upload, reload) : null,
        );
      }),
    );
  }

  select(kind, false);
  return () => {
    cancelCurrent();
    urls.revokeAll();
  };
};

function thumb(
  ctx: ViewContext,
  urls: ObjectUrls,
  picture: Picture & { deletable?: boolean },
  reload: () => Promise<void>,
): HTMLElement {
  return h(
    'figure',
    { class: 'thumb', testid: 'art-thumb', attrs: { 'data-src': picture.src } },
    h(
      'button',
      {
        class: 'thumb-open',
        testid: 'art-enlarge',
        attrs: { type: 'button', 'aria-label': `Enlarge ${picture.caption}` },
        on: { click: () => enlarge(ctx.api, urls, picture.src, picture.caption) },
      },
      apiImage(ctx.api, urls, picture.src, picture.caption),
    ),
    h('figcaption', { testid: 'art-thumb-caption', text: picture.caption }),
    picture.deletable === false
      ? null
      : actionButton(
          'Delete',
          'art-delete',
          async () => {
            const ok = await confirmDialog(
              'Delete this picture?',
              'The image file is removed from the server. This cannot be undone.',
              'Delete',
            );
            if (!ok) return;
            try {
              await ctx.api.json(picture.deletePath, { method: 'POST', fields: picture.deleteFields });
              ctx.messages.info('Picture deleted.');
            } catch (error) {
              ctx.messages.error(error);
            }
            await reload();
          },
          'button danger small',
        ),
  );
}

function uploadFor(
  ctx: ViewContext,
  upload: NonNullable<Group['upload']>,
  reload: () => Promise<void>,
): HTMLElement {
  return uploadZone(upload.label, async (file) => {
    const form = new FormData();
    if (upload.id) form.append('id', upload.id);
    form.append('file', file);
    try {
      await ctx.api.json(upload.path, { method: 'POST', form });
      ctx.messages.info('Picture uploaded.');
      await reload();
    } catch (error) {
      ctx.messages.error(error);
    }
  });
}
