import { BrowserWindow, dialog, screen, shell } from 'electron';
import type { AppFiles } from './paths.js';
import { allowPermission } from './permissions.js';
import { serverOrigin, serverUrl, type ServerState } from './server-lifecycle.js';
import {
  closeAction,
  fitBounds,
  loadBounds,
  navigationTarget,
  saveBounds,
  type QuitState,
} from './window-state.js';

export interface SettingsWindowDeps {
  files: Pick<AppFiles, 'preload' | 'windowIcon' | 'windowState'>;
  quit: QuitState;
  server: () => ServerState;
}

/**
 * The one settings window: the server's /admin page, isolated and sandboxed, that may navigate only
 * within the running server. Closing it hides it; the tray app keeps running.
 */
export class SettingsWindow {
  private window: BrowserWindow | null = null;

  constructor(private readonly deps: SettingsWindowDeps) {}

  /** Shows the window (made on first use) on the page's `tab`, or says why the server cannot. */
  async show(tab?: string): Promise<void> {
    const state = this.deps.server();
    const url = serverUrl(state);
    if (!url) {
      await dialog.showMessageBox({
        type: 'warning',
        title: 'Melon',
        message: 'The server is not running.',
        detail:
          state.kind === 'port-busy' || state.kind === 'failed' ? state.message : 'It is still starting.',
      });
      return;
    }
    const page = `${url}/admin${tab ? `#${tab}` : ''}`;
    if (!this.window) {
      this.window = await this.create();
      await this.window.loadURL(page);
    } else if (tab) {
      await this.window.loadURL(page);
    }
    if (this.window.isMinimized()) this.window.restore();
    this.window.show();
    this.window.focus();
  }

  /** After a restart the server may be elsewhere: an open window loads the page again. */
  async reload(url: string): Promise<void> {
    if (this.window) await this.window.loadURL(`${url}/admin`);
  }

  private async create(): Promise<BrowserWindow> {
    const { files, quit } = this.deps;
    const bounds = fitBounds(
      await loadBounds(files.windowState),
      screen.getAllDisplays().map((display) => display.workArea),
    );
    const win = new BrowserWindow({
      ...bounds,
      minWidth: 420,
      minHeight: 360,
      show: false,
      title: 'Melon',
      icon: files.windowIcon,
      autoHideMenuBar: true,
      webPreferences: {
        contextIsolation: true,
        nodeIntegration: false,
        sandbox: true,
        preload: files.preload,
      },
    });
    // Electron grants every permission by default; the page needs none (app/permissions.ts).
    const origin = () => serverOrigin(this.deps.server());
    const { session } = win.webContents;
    session.setPermissionRequestHandler((_contents, permission, grant, details) =>
      grant(allowPermission(permission, details.requestingUrl, origin())),
    );
    session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
      allowPermission(permission, requestingOrigin, origin()),
    );
    session.setDevicePermissionHandler(() => false);
    win.webContents.setWindowOpenHandler(({ url }) => {
      if (navigationTarget(url, null) === 'external') void shell.openExternal(url);
      return { action: 'deny' };
    });
    win.webContents.on('will-navigate', (event, url) => {
      const target = navigationTarget(url, serverOrigin(this.deps.server()));
      if (target === 'inside') return;
      event.preventDefault();
      if (target === 'external') void shell.openExternal(url);
    });
    win.on('close', (event) => {
      void saveBounds(files.windowState, win.getNormalBounds()).catch(() => undefined);
      if (closeAction(quit) === 'hide') {
        event.preventDefault();
        win.hide();
      }
    });
    win.on('closed', () => {
      this.window = null;
    });
    return win;
  }
}
