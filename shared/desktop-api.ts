/**
 * The only things the settings page may ask of the desktop app (exposed by preload.ts as
 * `window.melonDesktop`). Channel names are shared with the main process's handlers.
 */
export interface MelonDesktop {
  openDataFolder(): Promise<void>;
  copyText(text: string): Promise<void>;
  restartServer(): Promise<void>;
}

export const IPC = {
  openDataFolder: 'melon:open-data-folder',
  copyText: 'melon:copy-text',
  restartServer: 'melon:restart-server',
} as const;

/** Longest text the page may put on the clipboard: an invite link or a password, never a file. */
export const MAX_COPY_LENGTH = 4096;
