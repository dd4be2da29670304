import type { FirstAdmin } from '../server/services/user-service.js';

export interface FirstRunDialog {
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  /** Index of the button that copies the password. */
  copyButton: number;
}

/** The one time the generated Admin password is shown; null when there is nothing to show. */
export function firstRunDialog(firstAdmin: FirstAdmin | null): FirstRunDialog | null {
  if (!firstAdmin?.generatedPassword) return null;
  return {
    title: 'Welcome to Melon',
    message: `Melon made the Admin account "${firstAdmin.username}".`,
    detail:
      `Password: ${firstAdmin.generatedPassword}\n\n` +
      'It is shown only this once and is not stored anywhere. Copy it, sign in to the settings and ' +
      'keep it somewhere safe.',
    buttons: ['Copy password', 'Close'],
    copyButton: 0,
  };
}
