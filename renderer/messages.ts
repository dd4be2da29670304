import { h, replace } from './dom.js';

/**
 * The page's message area. Every failing request ends here with the server's `detail`, so nothing
 * fails silently; errors stay until dismissed, notices fade after a few seconds.
 */
export class Messages {
  constructor(private readonly root: HTMLElement) {}

  error(text: string): void {
    this.show('error', text, 'error-message');
  }

  info(text: string): void {
    const item = this.show('info', text, 'info-message');
    setTimeout(() => item.remove(), 5000);
  }

  clear(): void {
    replace(this.root);
  }

  private show(kind: 'error' | 'info', text: string, testid: string): HTMLElement {
    // The same error twice in a row (a retried request) is shown once.
    const last = this.root.lastElementChild as HTMLElement | null;
    if (last?.dataset.testid === testid && last.querySelector('.message-text')?.textContent === text)
      return last;
    const item = h(
      'div',
      { class: `message message-${kind}`, testid, attrs: { role: kind === 'error' ? 'alert' : 'status' } },
      h('span', { class: 'message-text', text }),
      h('button', {
        class: 'message-close',
        text: '×',
        attrs: { type: 'button', 'aria-label': 'Dismiss' },
        on: { click: () => item.remove() },
      }),
    );
    this.root.appendChild(item);
    while (this.root.children.length > 4) this.root.firstElementChild?.remove();
    return item;
  }
}
