/**
 * The desktop shell: Electron wiring only. Every decision lives in a plain module beside this one
 * (menu-model, window-state, server-lifecycle, update-check, invite-action, login-item) and is
 * tested in Node; this file turns their answers into Electron calls.
 */
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  screen,
  shell,
  Tray,
  type MenuItemConstructorOptions,
} from 'electron';
import { loadConfig, type Config } from '../server/config.js';
import { createServer } from '../server/index.js';
import { createLogger } from '../server/logger.js';
import { firstRunDialog } from './first-run.js';
import { createInviteAction, InviteTracker } from './invite-action.js';
import { ipcHandlers } from './ipc.js';
import { getOpenAtLogin, HIDDEN_ARG, setOpenAtLogin } from './login-item.js';
import {
  buildMenuModel,
  primaryAddress,
  trayTooltip,
  type MenuAction,
  type TrayState,
} from './menu-model.js';
import { appFiles, appRoot, sessionDataDir } from './paths.js';
import { ServerLifecycle, type ServerState } from './server-lifecycle.js';
import { UpdateChecker, updateNotice } from './update-check.js';
import { ElectronUpdaterInstaller } from './updater.js';
import {
  beforeQuitAction,
  closeAction,
  fitBounds,
  loadBounds,
  navigationTarget,
  QuitState,
  saveBounds,
} from './window-state.js';
import { messageOf } from '../server/errors.js';

const logger = createLogger();
// The data folder is the same as `npm start`'s (MELON_DATA_DIR, else the per-user app-data folder
// + /Melon, which is also Electron's userData): keep Chromium's cache and storage out of it.
app.setPath('sessionData', sessionDataDir(app.getPath('userData')));
const files = appFiles(appRoot(import.meta.url), app.getPath('userData'), process.platform);
const quit = new QuitState();
const invites = new InviteTracker();

let config: Config | null = null;
let tray: Tray | null = null;
let window: BrowserWindow | null = null;
let openAtLogin: boolean | null = null;
let countdown: NodeJS.Timeout | null = null;

const lifecycle: ServerLifecycle = new ServerLifecycle({
  config: () => {
    config = loadConfig(process.env);
    return config;
  },
  create: (cfg) =>
    createServer({
      config: cfg,
      logger,
      // quitAndInstall follows; the store is flushed first so no play log is lost.
      installer: new ElectronUpdaterInstaller({ logger, beforeExit: (): Promise<void> => lifecycle.stop() }),
      // After the installer has started, quit through Electron so before-quit still flushes.
      exit: () => {
        quit.isQuitting = true;
        app.quit();
      },
    }),
  onChange: () => refreshTray(),
});

const updates = new UpdateChecker(
  () => {
    const server = lifecycle.server;
    if (!server) return Promise.reject(new Error('The server is not running.'));
    return server.desktop.checkForUpdates();
  },
  (state) => {
    refreshTray();
    const notice = updateNotice(state);
    if (notice) notify(notice.title, notice.body);
  },
);

function serverUrl(): string | null {
  return lifecycle.state.kind === 'running' ? lifecycle.state.url : null;
}

/** The running server's origin (where the window may navigate and call IPC from); null when stopped. */
function serverOrigin(): string | null {
  const url = serverUrl();
  return url ? new URL(url).origin : null;
}

function notify(title: string, body: string): void {
  if (Notification.isSupported()) new Notification({ title, body, icon: files.windowIcon }).show();
  else logger.info(title, { detail: body });
}

/** A notice that holds a secret (an invite code): shown, but never written to the log instead. */
function notifySecret(title: string, body: string): void {
  if (Notification.isSupported()) new Notification({ title, body, icon: files.windowIcon }).show();
  else logger.info('a notification holding a secret was not shown (notifications are unavailable)');
}

function trayState(): TrayState {
  return { server: lifecycle.state, update: updates.state, openAtLogin, invites: invites.active() };
}

function refreshTray(): void {
  if (!tray) return;
  const state = trayState();
  tray.setToolTip(trayTooltip(state));
  tray.setContextMenu(Menu.buildFromTemplate(buildMenuModel(state).map(toElectron)));
  // Count active invite codes down in the menu once a second, and stop when none is left.
  const counting = state.invites.length > 0 && !quit.isQuitting;
  if (counting && !countdown) countdown = setInterval(refreshTray, 1000);
  if (!counting && countdown) {
    clearInterval(countdown);
    countdown = null;
  }
}

function toElectron(model: ReturnType<typeof buildMenuModel>[number]): MenuItemConstructorOptions {
  if (model.type === 'separator') return { type: 'separator' };
  const action = model.action;
  return {
    type: model.type,
    label: model.label,
    enabled: model.enabled,
    ...(model.type === 'checkbox' ? { checked: model.checked } : {}),
    ...(action ? { click: () => void runAction(action) } : {}),
  };
}

async function runAction(action: MenuAction): Promise<void> {
  try {
    switch (action) {
      case 'open-settings':
        return showWindow();
      case 'open-invites':
        return showWindow('invites');
      case 'open-updates':
        return showWindow('updates');
      case 'copy-address': {
        if (lifecycle.state.kind !== 'running') return;
        const address = primaryAddress(lifecycle.state);
        clipboard.writeText(address);
        return notify('Server address copied', address);
      }
      case 'create-invite': {
        const server = lifecycle.server;
        await createInviteAction({
          create: () =>
            server ? server.desktop.createInvite() : Promise.reject(new Error('The server is not running.')),
          copy: (text) => clipboard.writeText(text),
          notify: notifySecret,
          tracker: invites,
        });
        return refreshTray();
      }
      case 'check-updates':
        await updates.run();
        return;
      case 'toggle-login-item':
        openAtLogin = await setOpenAtLogin(!openAtLogin);
        return refreshTray();
      case 'retry-server':
        reportStart(await lifecycle.start());
        return showFirstRun();
      case 'quit':
        app.quit();
        return;
    }
  } catch (error) {
    notify('Melon', messageOf(error));
  }
}

function reportStart(state: ServerState): void {
  if (state.kind === 'port-busy' || state.kind === 'failed') {
    notify(
      state.kind === 'port-busy' ? `Port ${state.port} is in use` : 'Melon could not start',
      state.message,
    );
  }
  refreshTray();
}

async function showWindow(tab?: string): Promise<void> {
  const url = serverUrl();
  if (!url) {
    const state = lifecycle.state;
    await dialog.showMessageBox({
      type: 'warning',
      title: 'Melon',
      message: 'The server is not running.',
      detail: state.kind === 'port-busy' || state.kind === 'failed' ? state.message : 'It is still starting.',
    });
    return;
  }
  const page = `${url}/admin${tab ? `#${tab}` : ''}`;
  if (!window) {
    window = await createWindow();
    await window.loadURL(page);
  } else if (tab) {
    await window.loadURL(page);
  }
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

async function createWindow(): Promise<BrowserWindow> {
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
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (navigationTarget(url, null) === 'external') void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    const target = navigationTarget(url, serverOrigin());
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
    window = null;
  });
  return win;
}

function registerIpc(): void {
  const handlers = ipcHandlers(
    {
      openDataFolder: async () => {
        if (!config) return;
        const error = await shell.openPath(config.dataDir);
        if (error) throw new Error(error);
      },
      copyText: (text) => clipboard.writeText(text),
      restartServer: async () => {
        const state = await lifecycle.restart();
        reportStart(state);
        if (state.kind === 'running' && window) await window.loadURL(`${state.url}/admin`);
      },
    },
    serverOrigin,
  );
  for (const [channel, handler] of Object.entries(handlers)) ipcMain.handle(channel, handler);
}

async function showFirstRun(): Promise<void> {
  const firstAdmin = lifecycle.takeFirstAdmin();
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

async function shutdown(): Promise<void> {
  refreshTray(); // stops the invite countdown
  // The store must be flushed before the process ends; give it at most 6 s so a stuck request
  // cannot keep Melon from quitting.
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, 6_000).unref());
  await Promise.race([
    lifecycle.stop().catch((error: unknown) => logger.error('stop failed', { error: String(error) })),
    timeout,
  ]);
  quit.shutdownDone = true;
  app.quit();
}

async function start(): Promise<void> {
  await app.whenReady();
  registerIpc();
  tray = new Tray(nativeImage.createFromPath(files.trayIcon));
  tray.on('click', () => void showWindow());
  openAtLogin = await getOpenAtLogin().catch(() => null);
  refreshTray();
  const state = await lifecycle.start();
  reportStart(state);
  if (state.kind === 'running' && !process.argv.includes(HIDDEN_ARG)) await showWindow();
  // Shown even when the port was busy: the Admin was already stored, and this is its only showing.
  await showFirstRun();
}

if (!app.requestSingleInstanceLock()) {
  // Another Melon already runs (and owns the port and the store): it focuses its window.
  app.quit();
} else {
  app.on('second-instance', () => void showWindow());
  // A tray app keeps running with no window open.
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => void showWindow());
  app.on('before-quit', (event) => {
    const action = beforeQuitAction(quit);
    if (action === 'proceed') return;
    event.preventDefault();
    if (action === 'start-shutdown') void shutdown();
  });
  start().catch((error: unknown) => {
    logger.error('desktop start failed', {
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    dialog.showErrorBox('Melon could not start', messageOf(error));
    quit.isQuitting = true;
    app.exit(1);
  });
}
