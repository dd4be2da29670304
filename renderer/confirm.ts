import { clickButton, h, type Child } from './dom.js';

/**
 * Dialogs in a <dialog> (window.confirm blocks and cannot be styled or tested well). Focus goes to
 * the dialog's first button and, when it closes, back to what had it before (the trigger).
 */
function openDialog(
  testid: string,
  title: string,
  body: Child[],
  buttons: { label: string; testid: string; className: string; answer: boolean }[],
): Promise<boolean> {
  const trigger = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return new Promise((resolve) => {
    const titleId = `${testid}-title`;
    const dialog = h(
      'dialog',
      { class: 'confirm', testid, attrs: { 'aria-labelledby': titleId } },
      h('h2', { text: title, attrs: { id: titleId } }),
      ...body,
      h(
        'div',
        { class: 'actions' },
        ...buttons.map((button) =>
          clickButton(button.className, button.testid, button.label, () => done(button.answer)),
        ),
      ),
    );
    // Escape closes the dialog: that is a "no".
    dialog.addEventListener('cancel', () => done(false));
    function done(answer: boolean): void {
      if (dialog.open) dialog.close();
      dialog.remove();
      if (trigger?.isConnected) trigger.focus();
      resolve(answer);
    }
    document.body.appendChild(dialog);
    dialog.showModal();
  });
}

export function confirmDialog(
  title: string,
  text: string,
  confirmLabel: string,
  danger = true,
): Promise<boolean> {
  return openDialog(
    'confirm-dialog',
    title,
    [h('p', { text })],
    [
      { label: 'Cancel', testid: 'confirm-cancel', className: 'button', answer: false },
      {
        label: confirmLabel,
        testid: 'confirm-ok',
        className: danger ? 'button danger' : 'button primary',
        answer: true,
      },
    ],
  );
}

/** Shows something once (a new password) with a single button to close. */
export async function noticeDialog(title: string, ...body: Child[]): Promise<void> {
  await openDialog('notice-dialog', title, body, [
    { label: 'Done', testid: 'notice-ok', className: 'button primary', answer: true },
  ]);
}
