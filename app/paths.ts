import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where Chromium keeps the window's cache and storage. Electron's userData folder is the per-user
 * app-data folder + /Melon, the same folder the server uses as its data folder by default (as with
 * `npm start`), so Chromium's files go into a subfolder of their own.
 */
export function sessionDataDir(userDataPath: string): string {
  return join(userDataPath, 'Chromium');
}

/** The repository (or asar) root: this file runs from `app/` (tsx) or `dist/app/` (built). */
export function appRoot(moduleUrl: string): string {
  const here = fileURLToPath(new URL('.', moduleUrl));
  const parts = here.split(/[\\/]/).filter((part) => part !== '');
  const up = parts.at(-2) === 'dist' ? '../..' : '..';
  return join(here, up);
}

export interface AppFiles {
  /** The sandboxed preload must be CommonJS; the build bundles app/preload.ts into it. */
  preload: string;
  trayIcon: string;
  windowIcon: string;
  windowState: string;
}

export function appFiles(root: string, userDataPath: string, platform: NodeJS.Platform): AppFiles {
  return {
    preload: join(root, 'dist', 'app', 'preload.cjs'),
    // macOS shows menu-bar icons at 16 pt; the 32 px file is its @2x.
    trayIcon: join(root, 'build', platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
    windowIcon: join(root, 'build', 'icon.png'),
    windowState: join(userDataPath, 'window-state.json'),
  };
}
