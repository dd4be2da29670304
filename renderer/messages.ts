import { h, replace } from './dom.js';
import { explain, type OwnWords } from './problems.js';

const INFO_MS = 5000;
const ERROR_MS = 12000;

/**
 * The page's toasts. A failure shows its plain sentence with the server's detail one click away.
 * Every toast expires (errors later than notices, and not while the pointer or focus is on it), and
 * navigating clears them: a view's lasting errors are shown inline in that view, with Retry.
 */
export class Messages {
  constructor(private readonly root: HTMLElement) {}

  /**
   * `error` is an ApiError (plain words by its code, or by `own` where the view words a code for its
   * context), another Error, or a sentence.
   */
  error(error: unknown, own?: OwnWords): void {
    const { text, detail } = typeof error === 'string' ? { text: error, detail: null } : explain(error, own);
    this.show('error', text, detail, 'error-message', ERROR_MS);
  }

  info(text: string): void {
    this.show('info', text, null, 'info-message', INFO_MS);
  }

  clear(): void {
    replace(this.root);
  }

  private show(
    kind: 'error' | 'info',
    text: string,
    detail: string | null,
    testid: string,
    ms: number,
  ): void {
    // The same message twice in a row (a retried request) is shown once.
    const last = this.root.lastElementChild as HTMLElement | null;
    if (last?.dataset.testid === testid && last.querySelector('.message-text')?.textContent === text) return;
    const item = h(
      'div',
      { class: `message message-${kind}`, testid, attrs: { role: kind === 'error' ? 'alert' : 'status' } },
      h(
        'div',
        { class: 'message-body' },
        h('span', { class: 'message-text', text }),
        detail
          ? h(
              'details',
              { class: 'message-detail' },
              h('summary', { text: 'Details' }),
              h('span', { testid: 'message-detail', text: detail }),
            )
          : null,
      ),
      h('button', {
        class: 'message-close',
        text: '×',
        attrs: { type: 'button', 'aria-label': 'Dismiss' },
        on: { click: () => item.remove() },
      }),
    );
    let timer = setTimeout(() => item.remove(), ms);
    const hold = () => clearTimeout(timer);
    const release = () => {
      clearTimeout(timer);
      timer = setTimeout(() => item.remove(), ms / 2);
    };
    item.addEventListener('pointerenter', hold);
    item.addEventListener('focusin', hold);
    item.addEventListener('pointerleave', release);
    item.addEventListener('focusout', release);
    this.root.appendChild(item);
    while (this.root.children.length > 3) this.root.firstElementChild?.remove();
  }
}
