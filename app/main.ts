/**
 * The desktop shell's wiring. Every decision lives in a plain module beside this one (menu-model,
 * window-state, server-lifecycle, update-check, invite-action, login-item, first-run, ipc) and is
 * tested in Node; the Electron side is split by what it drives (tray, settings-window, notifier,
 * ipc-main, first-run-dialog). This file only connects them and the app's lifecycle events.
 */
import { app, clipboard, dialog } from 'electron';
import { loadConfig, type Config } from '../server/config.js';
import { messageOf } from '../server/errors.js';
import { createServer } from '../server/create-server.js';
import { tightHeapGrowth } from '../server/heap-growth.js';
import { createLogger } from '../server/logger.js';
import { showFirstRun } from './first-run-dialog.js';
import { createInviteAction, InviteTracker } from './invite-action.js';
import { registerIpc } from './ipc-main.js';
import { getOpenAtLogin, HIDDEN_ARG, setOpenAtLogin } from './login-item.js';
import { primaryAddress, type MenuAction } from './menu-model.js';
import { Notifier } from './notifier.js';
import { appFiles, appRoot, sessionDataDir } from './paths.js';
import { ServerLifecycle, serverOrigin, type ServerState } from './server-lifecycle.js';
import { SettingsWindow } from './settings-window.js';
import { DesktopTray } from './tray.js';
import { UpdateChecker, updateNotice } from './update-check.js';
import { ElectronUpdaterInstaller } from './updater.js';
import { beforeQuitAction, QuitState } from './window-state.js';

const logger = createLogger();
// The data folder is the same as `npm start`'s (MELON_DATA_DIR, else the per-user app-data folder
// + /Melon, which is also Electron's userData): keep Chromium's cache and storage out of it.
app.setPath('sessionData', sessionDataDir(app.getPath('userData')));
const files = appFiles(appRoot(import.meta.url), app.getPath('userData'), process.platform);
const quit = new QuitState();
const invites = new InviteTracker();
const { notify, notifySecret } = new Notifier(files.windowIcon, logger);

let config: Config | null = null;
let tray: DesktopTray | null = null;
let openAtLogin: boolean | null = null;
const refreshTray = (): void => tray?.refresh();

const lifecycle: ServerLifecycle = new ServerLifecycle({
  config: () => {
    config = loadConfig(process.env);
    return config;
  },
  create: (cfg) =>
    createServer({
      config: cfg,
      logger,
      heapGrowth: tightHeapGrowth(),
      // quitAndInstall follows; the store is flushed first so no play log is lost.
      installer: new ElectronUpdaterInstaller({ logger, beforeExit: (): Promise<void> => lifecycle.stop() }),
      // After the installer has started, quit through Electron so before-quit still flushes.
      exit: () => {
        quit.isQuitting = true;
        app.quit();
      },
    }),
  onChange: refreshTray,
});

/** The running server, or a refusal the tray shows as a notification. */
function running() {
  const server = lifecycle.server;
  if (!server) throw new Error('The server is not running.');
  return server;
}

const updates = new UpdateChecker(
  async () => running().desktop.checkForUpdates(),
  (state) => {
    refreshTray();
    const notice = updateNotice(state);
    if (notice) notify(notice.title, notice.body);
  },
);

const settingsWindow = new SettingsWindow({ files, quit, server: () => lifecycle.state });
const showWindow = (tab?: string): Promise<void> => settingsWindow.show(tab);

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
      case 'create-invite':
        await createInviteAction({
          create: async () => running().desktop.createInvite(),
          copy: (text) => clipboard.writeText(text),
          notify: notifySecret,
          tracker: invites,
        });
        return refreshTray();
      case 'check-updates':
        await updates.run();
        return;
      case 'toggle-login-item':
        openAtLogin = await setOpenAtLogin(!openAtLogin);
        return refreshTray();
      case 'retry-server':
        reportStart(await lifecycle.start());
        return showFirstRun(lifecycle.takeFirstAdmin());
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
  registerIpc({
    dataDir: () => config?.dataDir ?? null,
    restartServer: async () => {
      const state = await lifecycle.restart();
      reportStart(state);
      if (state.kind === 'running') await settingsWindow.reload(state.url);
    },
    serverOrigin: () => serverOrigin(lifecycle.state),
  });
  tray = new DesktopTray({
    icon: files.trayIcon,
    state: () => ({ server: lifecycle.state, update: updates.state, openAtLogin, invites: invites.active() }),
    quitting: () => quit.isQuitting,
    onAction: runAction,
    onClick: () => void showWindow(),
  });
  openAtLogin = await getOpenAtLogin().catch(() => null);
  refreshTray();
  const state = await lifecycle.start();
  reportStart(state);
  if (state.kind === 'running' && !process.argv.includes(HIDDEN_ARG)) await showWindow();
  // Shown even when the port was busy: the Admin was already stored, and this is its only showing.
  await showFirstRun(lifecycle.takeFirstAdmin());
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
