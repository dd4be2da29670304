import { clipboard, ipcMain, shell } from 'electron';
import { ipcHandlers } from './ipc.js';

export interface IpcDeps {
  /** The data folder, once the configuration was read; null before. */
  dataDir: () => string | null;
  restartServer: () => Promise<void>;
  /** Where calls may come from: the running server's origin, null when it is stopped. */
  serverOrigin: () => string | null;
}

/** Registers ipc.ts's checked handlers for the preload's three calls with Electron. */
export function registerIpc(deps: IpcDeps): void {
  const handlers = ipcHandlers(
    {
      openDataFolder: async () => {
        const dataDir = deps.dataDir();
        if (!dataDir) return;
        const error = await shell.openPath(dataDir);
        if (error) throw new Error(error);
      },
      copyText: (text) => clipboard.writeText(text),
      restartServer: deps.restartServer,
    },
    deps.serverOrigin,
  );
  for (const [channel, handler] of Object.entries(handlers)) ipcMain.handle(channel, handler);
}
