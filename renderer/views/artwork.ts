import { errorText } from '../api.js';
import type { View, ViewContext } from '../context.js';
import { actionButton, h, replace } from '../dom.js';
import { confirmDialog } from '../confirm.js';

type Kind = 'tracks' | 'artists' | 'playlists' | 'collections' | 'default';

interface Named {
  id: string;
  name: string;
}
interface TrackItem extends Named {
  artists?: Named[];
  artwork: { pos: number; type?: string; mime?: string; width?: number | null; height?: number | null }[];
}
interface ArtistItem extends Named {
  pfpCount: number;
  bannerCount: number;
}
interface SetItem extends Named {
  hasArtwork: boolean;
}
type Item = TrackItem | ArtistItem | SetItem;

/** One picture the page can show and delete. */
interface Picture {
  /** GET path of the image. */
  src: string;
  caption: string;
  deletePath: string;
  deleteFields: Record<string, string>;
}

/** A group of pictures of one item, with an optional upload. */
interface Group {
  title: string;
  testid: string;
  pictures: Picture[];
  upload?: { path: string; id?: string; label: string };
}

const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'tracks', label: 'Tracks' },
  { kind: 'artists', label: 'Artists' },
  { kind: 'playlists', label: 'Playlists' },
  { kind: 'collections', label: 'Collections' },
  { kind: 'default', label: 'Default artwork' },
];

/** Artwork (Admin): browse, view every picture with its position, delete one, upload new ones. */
export const artworkView: View = (ctx, root) => {
  let kind: Kind = 'tracks';
  let urls: string[] = [];
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  const search = h('input', {
    testid: 'art-search',
    attrs: { type: 'search', placeholder: 'Search by name', 'aria-label': 'Search' },
  });
  const results = h('ul', { class: 'art-results', testid: 'art-results' });
  const detail = h('div', { class: 'art-detail', testid: 'art-detail' });
  const kinds = h(
    'div',
    { class: 'segmented', attrs: { role: 'tablist' } },
    ...KINDS.map((entry) =>
      h('button', {
        class: 'segment',
        testid: `art-kind-${entry.kind}`,
        text: entry.label,
        attrs: { type: 'button', role: 'tab' },
        on: { click: () => selectKind(entry.kind) },
      }),
    ),
  );
  search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => void loadList(), 250);
  });
  replace(
    root,
    h(
      'section',
      { class: 'card' },
      h('h2', { text: 'Artwork' }),
      kinds,
      search,
      h('div', { class: 'art-layout' }, results, detail),
    ),
  );

  function selectKind(next: Kind): void {
    kind = next;
    kinds.querySelectorAll<HTMLButtonElement>('.segment').forEach((button) => {
      button.setAttribute('aria-selected', String(button.dataset.testid === `art-kind-${next}`));
    });
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
    clearTimeout(searchTimer);
    revokeUrls();
  };
};

function summary(item: Item): string {
  if ('artwork' in item) {
    const artists = (item.artists ?? []).map((artist) => artist.name).join(', ');
    return `${artists ? `${artists} · ` : ''}${item.artwork.length} picture${item.artwork.length === 1 ? '' : 's'}`;
  }
  if ('pfpCount' in item) return `${item.pfpCount} profile picture(s), ${item.bannerCount} banner(s)`;
  return item.hasArtwork ? 'has artwork' : 'no artwork';
}

function groupsFor(kind: Kind, item: Item | null): Group[] {
  const enc = encodeURIComponent;
  if (kind === 'default' || item === null) {
    return [
      {
        title: 'Default artwork (used where an item has none)',
        testid: 'art-group-default',
        pictures: [
          {
            src: '/api/art/default',
            caption: 'default',
            deletePath: '/api/art/delete/default-art',
            deleteFields: {},
          },
        ],
        upload: { path: '/api/art/upload/default-art', label: 'Upload default artwork' },
      },
    ];
  }
  if (kind === 'tracks' && 'artwork' in item) {
    return [
      {
        title: 'Embedded pictures',
        testid: 'art-group-track',
        pictures: item.artwork.map((art) => ({
          src: `/api/art/track/${enc(item.id)}/${art.pos}`,
          caption: [`#${art.pos}`, art.type, art.width && art.height ? `${art.width}×${art.height}` : null]
            .filter(Boolean)
            .join(' · '),
          deletePath: '/api/art/delete/track-art',
          deleteFields: { id: item.id, pos: String(art.pos) },
        })),
      },
    ];
  }
  if (kind === 'artists' && 'pfpCount' in item) {
    const list = (count: number, path: string, kindName: 'artist-pfp' | 'artist-banner'): Picture[] =>
      Array.from({ length: count }, (_, pos) => ({
        src: `/api/art/${path}/${enc(item.id)}/${pos}`,
        caption: `#${pos}`,
        deletePath: `/api/art/delete/${kindName}`,
        deleteFields: { id: item.id, pos: String(pos) },
      }));
    return [
      {
        title: 'Profile pictures',
        testid: 'art-group-pfp',
        pictures: list(item.pfpCount, 'artist-pfp', 'artist-pfp'),
        upload: { path: '/api/art/upload/artist-pfp', id: item.id, label: 'Upload a profile picture' },
      },
      {
        title: 'Banners',
        testid: 'art-group-banner',
        pictures: list(item.bannerCount, 'artist-banner', 'artist-banner'),
        upload: { path: '/api/art/upload/artist-banner', id: item.id, label: 'Upload a banner' },
      },
    ];
  }
  const single = kind === 'playlists' ? 'playlist' : 'collection';
  const set = item as SetItem;
  return [
    {
      title: 'Artwork',
      testid: `art-group-${single}`,
      pictures: set.hasArtwork
        ? [
            {
              src: `/api/art/${single}/${enc(set.id)}`,
              caption: 'artwork',
              deletePath: `/api/art/delete/${single}-art`,
              deleteFields: { id: set.id },
            },
          ]
        : [],
      upload: { path: `/api/art/upload/${single}-art`, id: set.id, label: `Upload ${single} artwork` },
    },
  ];
}

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
        const confirmed = await confirmDialog(
          'Delete this picture?',
          picture.deletePath.endsWith('track-art')
            ? 'It is removed from the audio file itself. This cannot be undone.'
            : 'The image file is removed from the server. This cannot be undone.',
          'Delete',
        );
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
