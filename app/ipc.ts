import { IPC, MAX_COPY_LENGTH } from '../shared/desktop-api.js';

export interface DesktopActions {
  openDataFolder(): Promise<void>;
  copyText(text: string): void;
  restartServer(): Promise<void>;
}

export type IpcHandler = (
  event: { senderFrame: { url: string } | null },
  ...args: unknown[]
) => Promise<void>;

/**
 * The main-process side of preload.ts. Every call is checked: it must come from the server's own
 * settings page (not a page it navigated to), and its arguments must be what the API promises.
 */
export function ipcHandlers(
  actions: DesktopActions,
  serverOrigin: () => string | null,
): Record<string, IpcHandler> {
  const guard =
    (run: (...args: unknown[]) => Promise<void> | void): IpcHandler =>
    async (event, ...args) => {
      const origin = serverOrigin();
      const from = event.senderFrame ? safeOrigin(event.senderFrame.url) : null;
      if (origin === null || from !== origin) throw new Error('Refused: not from the Melon settings page');
      await run(...args);
    };
  return {
    [IPC.openDataFolder]: guard(() => actions.openDataFolder()),
    [IPC.copyText]: guard((text) => {
      if (typeof text !== 'string' || text.length > MAX_COPY_LENGTH) throw new Error('Refused: invalid text');
      actions.copyText(text);
    }),
    [IPC.restartServer]: guard(() => actions.restartServer()),
  };
}

function safeOrigin(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
