import { h } from './dom.js';

/** A confirmation in a <dialog> (window.confirm blocks and cannot be styled or tested well). */
export function confirmDialog(title: string, text: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { class: 'confirm', testid: 'confirm-dialog' },
      h('h3', { text: title }),
      h('p', { text }),
      h(
        'div',
        { class: 'actions' },
        h('button', {
          class: 'button',
          testid: 'confirm-cancel',
          text: 'Cancel',
          attrs: { type: 'button' },
          on: { click: () => done(false) },
        }),
        h('button', {
          class: 'button danger',
          testid: 'confirm-ok',
          text: confirmLabel,
          attrs: { type: 'button' },
          on: { click: () => done(true) },
        }),
      ),
    );
    // Escape closes the dialog: that is a "no".
    dialog.addEventListener('cancel', () => done(false));
    function done(answer: boolean): void {
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(answer);
    }
    document.body.appendChild(dialog);
    dialog.showModal();
  });
}
