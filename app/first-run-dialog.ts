import { clipboard, dialog } from 'electron';
import type { FirstAdmin } from '../server/services/user-service.js';
import { firstRunDialog } from './first-run.js';

/** Shows first-run.ts's welcome with the generated Admin password, if there is one to show. */
export async function showFirstRun(firstAdmin: FirstAdmin | null): Promise<void> {
  const content = firstRunDialog(firstAdmin);
  const password = firstAdmin?.generatedPassword;
  if (!content || !password) return;
  const { response } = await dialog.showMessageBox({
    type: 'info',
    title: content.title,
    message: content.message,
    detail: content.detail,
    buttons: content.buttons,
    defaultId: content.copyButton,
  });
  if (response === content.copyButton) clipboard.writeText(password);
}
