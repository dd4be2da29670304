import { clickButton, h, replace, type Child, type Props } from '../dom.js';
import { ApiError } from '../api.js';
import { explain } from '../problems.js';

/**
 * The one way a view shows data it fetches: a placeholder while the first load runs, the data, an
 * empty state, or an inline error with Retry. A reload keeps what is shown (marked busy) instead of
 * blanking it, so a refresh every few seconds does not flicker. Older loads finishing late are
 * dropped.
 */
export interface SectionSpec<T> {
  testid: string;
  /** What is loading, for the placeholder ("statistics"). */
  label: string;
  load: () => Promise<T>;
  render: (data: T) => Child | Child[];
  /** When true, `empty` is shown instead of `render`. */
  isEmpty?: (data: T) => boolean;
  empty?: string | (() => Child);
}

export interface Section {
  element: HTMLElement;
  reload(): Promise<void>;
  /** Stops showing results of loads in flight (the view is going away). */
  cancel(): void;
}

export function section<T>(spec: SectionSpec<T>, tag: 'div' | 'section' = 'div'): Section {
  const element = h(tag, { class: 'async-section', testid: spec.testid });
  let generation = 0;
  let shown = false;
  const reload = async (): Promise<void> => {
    const mine = ++generation;
    element.setAttribute('aria-busy', 'true');
    if (!shown) replace(element, placeholder(spec.label, spec.testid));
    try {
      const data = await spec.load();
      if (mine !== generation) return;
      if (spec.isEmpty?.(data)) {
        const empty = typeof spec.empty === 'function' ? spec.empty() : (spec.empty ?? 'Nothing yet.');
        replace(
          element,
          typeof empty === 'string'
            ? h('p', { class: 'muted empty', testid: `${spec.testid}-empty`, text: empty })
            : empty,
        );
      } else {
        const rendered = spec.render(data);
        replace(element, ...(Array.isArray(rendered) ? rendered : [rendered]));
      }
      shown = true;
    } catch (error) {
      if (mine !== generation) return;
      shown = false;
      replace(
        element,
        errorBox(error, spec.testid, () => void reload()),
      );
    } finally {
      if (mine === generation) element.removeAttribute('aria-busy');
    }
  };
  return { element, reload, cancel: () => void generation++ };
}

/** A section that lists what it loads, an `li` made by `item` each, or says `empty` when there is none. */
export function listSection<T>(spec: {
  testid: string;
  label: string;
  load: () => Promise<T[]>;
  empty: string;
  /** The list element's class and test id. */
  list: Props;
  item: (entry: T) => Child;
}): Section {
  return section<T[]>({
    testid: spec.testid,
    label: spec.label,
    load: spec.load,
    isEmpty: (entries) => entries.length === 0,
    empty: spec.empty,
    render: (entries) => h('ul', spec.list, ...entries.map(spec.item)),
  });
}

/** Grey bars where content will be, with the words for screen readers. */
export function placeholder(label: string, testid: string): HTMLElement {
  return h(
    'div',
    { class: 'placeholder', testid: `${testid}-loading`, attrs: { role: 'status' } },
    h('span', { class: 'visually-hidden', text: `Loading ${label}…` }),
    h('span', { class: 'placeholder-bar', attrs: { 'aria-hidden': 'true' } }),
    h('span', { class: 'placeholder-bar short', attrs: { 'aria-hidden': 'true' } }),
    h('span', { class: 'placeholder-bar', attrs: { 'aria-hidden': 'true' } }),
  );
}

/** Refusals that asking again cannot change: no Retry for them. */
const FINAL = new Set(['stats_private', 'user_not_found', 'forbidden_role', 'invalid_parameter']);

/** An inline error: the plain sentence, the server's detail one click away, and Retry. */
export function errorBox(error: unknown, testid: string, retry: (() => void) | null): HTMLElement {
  const { text, detail } = explain(error);
  if (error instanceof ApiError && FINAL.has(error.code)) retry = null;
  return h(
    'div',
    { class: 'inline-error', testid: `${testid}-error`, attrs: { role: 'alert' } },
    h('p', { class: 'error-text', testid: `${testid}-error-text`, text }),
    detail
      ? h(
          'details',
          { class: 'message-detail' },
          h('summary', { text: 'Details' }),
          h('span', { text: detail }),
        )
      : null,
    retry ? clickButton('button', `${testid}-retry`, 'Retry', retry) : null,
  );
}
