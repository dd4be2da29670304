import { errorText } from '../api.js';
import type { View, ViewContext } from '../context.js';
import { actionButton, card, h, onInputSettled, replace, segmented } from '../dom.js';
import { confirmDialog } from '../confirm.js';
import {
  deleteWarning,
  groupsFor,
  KINDS,
  summary,
  type Group,
  type Item,
  type Kind,
  type Picture,
} from '../artwork-model.js';

/** Artwork (Admin): browse, view every picture with its position, delete one, upload new ones. */
export const artworkView: View = (ctx, root) => {
  let kind: Kind = 'tracks';
  let urls: string[] = [];
  const search = h('input', {
    testid: 'art-search',
    attrs: { type: 'search', placeholder: 'Search by name', 'aria-label': 'Search' },
  });
  const results = h('ul', { class: 'art-results', testid: 'art-results' });
  const detail = h('div', { class: 'art-detail', testid: 'art-detail' });
  const kinds = segmented(KINDS, 'art-kind', (next) => selectKind(next));
  const cancelSearch = onInputSettled(search, 250, () => void loadList());
  replace(root, card('Artwork', kinds.element, search, h('div', { class: 'art-layout' }, results, detail)));

  function selectKind(next: Kind): void {
    kind = next;
    kinds.mark(next);
    search.hidden = next === 'default';
    replace(detail);
    if (next === 'default') {
      replace(results);
      void showItem(null);
    } else {
      void loadList();
    }
  }

  async function loadList(): Promise<void> {
    if (kind === 'default') return;
    const listKind = kind;
    try {
      const page = await ctx.api.json<{ items: Item[]; total: number }>(`/api/${listKind}`, {
        query: { q: search.value.trim(), count: 50 },
      });
      if (listKind !== kind) return;
      if (page.items.length === 0) {
        replace(results, h('li', { class: 'muted', text: 'Nothing found.' }));
        return;
      }
      replace(
        results,
        ...page.items.map((item) =>
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
        ),
        page.total > page.items.length
          ? h('li', { class: 'muted', text: `${page.total - page.items.length} more — refine the search.` })
          : null,
      );
    } catch (error) {
      ctx.messages.error(errorText(error));
    }
  }

  async function showItem(id: string | null): Promise<void> {
    const shownKind = kind;
    try {
      const item =
        id === null ? null : await ctx.api.json<Item>(`/api/${shownKind}/${encodeURIComponent(id)}`);
      if (shownKind !== kind) return;
      drawGroups(item ? item.name || '(untitled)' : 'Default artwork', groupsFor(shownKind, item), () =>
        showItem(id),
      );
    } catch (error) {
      ctx.messages.error(errorText(error));
    }
  }

  function drawGroups(title: string, groups: Group[], reload: () => Promise<void>): void {
    revokeUrls();
    const sections = groups.map((group) => {
      const grid = h('div', { class: 'thumbs', testid: `${group.testid}-thumbs` });
      if (group.pictures.length === 0) grid.appendChild(h('p', { class: 'muted', text: 'No pictures.' }));
      for (const picture of group.pictures)
        grid.appendChild(thumb(ctx, picture, reload, (url) => urls.push(url)));
      return h(
        'section',
        { class: 'art-group', testid: group.testid },
        h('h3', { text: group.title }),
        grid,
        group.upload ? uploadForm(ctx, group.upload, reload) : null,
      );
    });
    replace(detail, h('h3', { class: 'art-title', testid: 'art-title', text: title }), ...sections);
  }

  function revokeUrls(): void {
    for (const url of urls) URL.revokeObjectURL(url);
    urls = [];
  }

  selectKind('tracks');
  return () => {
    cancelSearch();
    revokeUrls();
  };
};

function thumb(
  ctx: ViewContext,
  picture: Picture,
  reload: () => Promise<void>,
  track: (url: string) => void,
): HTMLElement {
  const img = h('img', { class: 'thumb-img', attrs: { alt: picture.caption, loading: 'lazy' } });
  const figure = h(
    'figure',
    { class: 'thumb', testid: 'art-thumb', attrs: { 'data-src': picture.src } },
    img,
    h('figcaption', { testid: 'art-thumb-caption', text: picture.caption }),
    actionButton(
      'Delete',
      'art-delete',
      async () => {
        const confirmed = await confirmDialog('Delete this picture?', deleteWarning(picture), 'Delete');
        if (!confirmed) return;
        try {
          // The interface names a form body for artwork deletion.
          await ctx.api.json(picture.deletePath, { method: 'POST', fields: picture.deleteFields });
          ctx.messages.info('Picture deleted.');
          await reload();
        } catch (error) {
          ctx.messages.error(errorText(error));
        }
      },
      'button danger small',
    ),
  );
  ctx.api
    .blob(picture.src)
    .then((blob) => {
      const url = URL.createObjectURL(blob);
      track(url);
      img.src = url;
    })
    .catch((error: unknown) => {
      figure.classList.add('thumb-missing');
      ctx.messages.error(`Could not load ${picture.caption}: ${errorText(error)}`);
    });
  return figure;
}

function uploadForm(
  ctx: ViewContext,
  upload: NonNullable<Group['upload']>,
  reload: () => Promise<void>,
): HTMLElement {
  const input = h('input', {
    testid: 'art-upload-file',
    attrs: { type: 'file', accept: 'image/jpeg,image/png,image/webp', 'aria-label': upload.label },
  });
  return h(
    'div',
    { class: 'upload' },
    input,
    actionButton(upload.label, 'art-upload', async () => {
      const file = input.files?.[0];
      if (!file) {
        ctx.messages.error('Choose a JPEG, PNG or WebP image first.');
        return;
      }
      const form = new FormData();
      if (upload.id) form.append('id', upload.id);
      form.append('file', file);
      try {
        await ctx.api.json(upload.path, { method: 'POST', form });
        ctx.messages.info('Picture uploaded.');
        await reload();
      } catch (error) {
        ctx.messages.error(errorText(error));
      }
    }),
  );
}
