import type { Api } from '../api.js';
import { h } from '../dom.js';
import { formatNumber } from '../format.js';
import type { ObjectUrls } from '../ui/pictures.js';

/** Covers in a top list: shown at 3 rem, so 128 px stays sharp on a phone's dense screen. */
export const TOP_COVER_PX = 128;

/** One row of a top list with covers. */
export interface TopRow {
  title: string;
  /** "artist · album", under the title. */
  detail?: string | undefined;
  /** The picture: `/api/art/album/…` or `/api/art/artist/…`; none for a genre. */
  cover?: { kind: 'album' | 'artist'; id: string } | undefined;
  /** Where the row opens (the album or artist in Listen). */
  href?: string | undefined;
  /** What it is ranked by, for tests and the value column. */
  value: number;
  /** The figures, right-aligned in their own column: "12 plays", then "43 min". */
  figure: string;
  figureDetail?: string | undefined;
}

/**
 * Pictures fetched only when their row comes near the screen (the token-bearing fetch the API needs
 * cannot use `loading="lazy"`), so a long list costs what is seen. One observer per list.
 */
export class LazyCovers {
  private readonly observer: IntersectionObserver | undefined;
  private readonly waiting = new Map<Element, () => void>();

  constructor(
    private readonly api: Api,
    private readonly urls: ObjectUrls,
  ) {
    if (typeof IntersectionObserver === 'function') {
      this.observer = new IntersectionObserver((entries) => this.seen(entries), { rootMargin: '200px' });
    }
  }

  /**
   * A cover in its placeholder (a tinted square until the picture arrives, or for good when there is
   * none). Its alt text is empty on purpose: it sits in the same link as the title, which names it
   * (an image and its text in one link), and a screen reader would otherwise read the name twice.
   */
  cover(kind: 'album' | 'artist', id: string, className: string): HTMLElement {
    const img = h('img', {
      attrs: { alt: '', decoding: 'async', width: TOP_COVER_PX, height: TOP_COVER_PX },
    });
    const frame = h(
      'span',
      { class: `${className} cover-frame`, attrs: { 'data-cover': `${kind}/${id}` } },
      img,
    );
    const load = () => {
      this.api
        .blob(`/api/art/${kind}/${encodeURIComponent(id)}?size=${TOP_COVER_PX}`)
        .then((blob) => {
          img.src = this.urls.add(blob);
          frame.classList.add('cover-loaded');
        })
        .catch(() => frame.classList.add('cover-missing'));
    };
    if (this.observer) {
      this.waiting.set(frame, load);
      this.observer.observe(frame);
    } else load();
    return frame;
  }

  disconnect(): void {
    this.observer?.disconnect();
    this.waiting.clear();
  }

  private seen(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const load = this.waiting.get(entry.target);
      this.waiting.delete(entry.target);
      this.observer?.unobserve(entry.target);
      load?.();
    }
  }
}

/**
 * A top list as a listening service shows one: rank, small cover, the title over "artist · album",
 * and the figures in a fixed column. Cover, title and detail are one link to the item, so the whole
 * row is a large target and its name says which track of which album; `data-label`/`data-value`
 * carry what it is ranked by.
 */
export function topList(rows: TopRow[], covers: LazyCovers, testid: string, label: string): HTMLElement {
  const list = h('ol', { class: 'cover-list', testid, attrs: { 'aria-label': label } });
  rows.forEach((row, i) => {
    const picture = row.cover ? covers.cover(row.cover.kind, row.cover.id, 'cover-thumb') : null;
    const text = h(
      'span',
      { class: 'cover-text' },
      h('span', { class: 'ranked-name', text: row.title }),
      row.detail ? h('small', { class: 'cover-detail muted', text: row.detail }) : null,
    );
    list.appendChild(
      h(
        'li',
        {
          class: 'cover-row',
          testid: `${testid}-item`,
          attrs: { 'data-label': row.title, 'data-value': row.value },
        },
        h('span', { class: 'cover-rank', text: formatNumber(i + 1), attrs: { 'aria-hidden': 'true' } }),
        row.href
          ? h('a', { class: 'cover-open', attrs: { href: row.href } }, picture, text)
          : h('span', { class: 'cover-open' }, picture, text),
        h(
          'span',
          { class: 'ranked-value cover-figure' },
          h('span', { text: row.figure }),
          row.figureDetail ? h('small', { class: 'muted', text: row.figureDetail }) : null,
        ),
      ),
    );
  });
  return list;
}
