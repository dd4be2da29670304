import { contextBridge, ipcRenderer } from 'electron';
import { IPC, type MelonDesktop } from '../shared/desktop-api.js';

// Sandboxed preload: bundled to CommonJS (dist/app/preload.cjs). It hands the page three functions
// and nothing else: no ipcRenderer, no Node.
const desktop: MelonDesktop = {
  openDataFolder: () => ipcRenderer.invoke(IPC.openDataFolder) as Promise<void>,
  copyText: (text: string) => ipcRenderer.invoke(IPC.copyText, String(text)) as Promise<void>,
  restartServer: () => ipcRenderer.invoke(IPC.restartServer) as Promise<void>,
};

contextBridge.exposeInMainWorld('melonDesktop', desktop);
