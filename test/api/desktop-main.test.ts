import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as LoggerModule from '../../server/logger.js';

/**
 * app/main.ts, the Electron wiring, with `electron` and `electron-updater` mocked (the Electron
 * binary is never loaded) and the real embedded server on a free port in a temp data folder.
 */
type Listener = (...args: unknown[]) => unknown;

const fake = vi.hoisted(() => {
  class Emitter {
    listeners = new Map<string, Listener[]>();
    on(event: string, listener: Listener) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
      return this;
    }
    emit(event: string, ...args: unknown[]) {
      for (const listener of this.listeners.get(event) ?? []) listener(...args);
    }
  }
  /** Electron's events: preventDefault() holds back the default action. */
  const event = () => ({
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  });

  const state = {
    userData: '',
    lock: true,
    /** Set once `before-quit` was let through: the app really quits. */
    quitted: false,
    windows: [] as FakeWindow[],
    trays: [] as FakeTray[],
    notifications: [] as { title: string; body: string }[],
    /** Every line any logger of the app wrote. */
    logLines: [] as string[],
  };

  class App extends Emitter {
    setPath = vi.fn();
    getPath = (name: string) => (name === 'userData' ? state.userData : join(state.userData, name));
    requestSingleInstanceLock = vi.fn(() => state.lock);
    whenReady = () => Promise.resolve();
    exit = vi.fn();
    getLoginItemSettings = () => ({ openAtLogin: false });
    setLoginItemSettings = vi.fn();
    quit = vi.fn(() => {
      const quitEvent = event();
      this.emit('before-quit', quitEvent);
      if (quitEvent.defaultPrevented) return;
      state.quitted = true;
      // Quitting closes the windows, which may not refuse any more.
      for (const window of state.windows) window.close();
    });
  }
  const join = (...parts: string[]) => parts.join('/');

  class FakeWindow extends Emitter {
    visible = false;
    destroyed = false;
    url = '';
    webContents = Object.assign(new Emitter(), {
      setWindowOpenHandler: vi.fn(),
      session: {
        setPermissionRequestHandler: vi.fn(),
        setPermissionCheckHandler: vi.fn(),
        setDevicePermissionHandler: vi.fn(),
      },
    });
    constructor(readonly options: Record<string, unknown>) {
      super();
      state.windows.push(this);
    }
    loadURL = vi.fn((url: string) => {
      this.url = url;
      return Promise.resolve();
    });
    show = vi.fn(() => (this.visible = true));
    hide = vi.fn(() => (this.visible = false));
    focus = vi.fn();
    restore = vi.fn();
    isMinimized = () => false;
    getNormalBounds = () => ({ x: 10, y: 20, width: 900, height: 700 });
    /** Like BrowserWindow.close(): emits `close`, and closes unless a handler prevented it. */
    close() {
      const closeEvent = event();
      this.emit('close', closeEvent);
      if (closeEvent.defaultPrevented) return false;
      this.destroyed = true;
      this.emit('closed');
      return true;
    }
  }

  class FakeTray extends Emitter {
    tooltip = '';
    menu: { label?: string; type?: string; enabled?: boolean; click?: () => void }[] = [];
    constructor() {
      super();
      state.trays.push(this);
    }
    setToolTip = (text: string) => (this.tooltip = text);
    setContextMenu = (menu: FakeTray['menu']) => (this.menu = menu);
  }

  class FakeNotification {
    static isSupported = vi.fn(() => true);
    constructor(private readonly options: { title: string; body: string }) {}
    show() {
      state.notifications.push({ title: this.options.title, body: this.options.body });
    }
  }

  const electron = {
    app: new App(),
    BrowserWindow: FakeWindow,
    Tray: FakeTray,
    Notification: FakeNotification,
    Menu: { buildFromTemplate: (template: unknown) => template },
    nativeImage: { createFromPath: (path: string) => ({ path }) },
    clipboard: { writeText: vi.fn() },
    dialog: {
      showMessageBox: vi.fn((_options: Record<string, unknown>) => Promise.resolve({ response: 1 })),
      showErrorBox: vi.fn(),
    },
    ipcMain: { handle: vi.fn() },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    shell: { openPath: vi.fn(() => Promise.resolve('')), openExternal: vi.fn() },
  };
  const updater = { autoDownload: true, autoInstallOnAppQuit: true, on: vi.fn(), off: vi.fn() };
  return { state, electron, updater };
});

vi.mock('electron', () => fake.electron);
vi.mock('electron-updater', () => ({ default: { autoUpdater: fake.updater } }));
vi.mock('../../server/logger.js', async (importOriginal) => {
  const original = await importOriginal<typeof LoggerModule>();
  return { ...original, createLogger: () => original.createLogger((line) => fake.state.logLines.push(line)) };
});

const { state, electron } = fake;
let home = '';
let blocker: Server | null = null;

beforeEach(async () => {
  vi.resetModules();
  home = await mkdtemp(join(tmpdir(), 'melon-main-'));
  // Beside the data folder, not around it: Melon refuses a data folder inside a music folder.
  await mkdir(join(home, 'music'));
  Object.assign(state, { userData: join(home, 'Melon'), lock: true, quitted: false });
  state.windows.length = 0;
  state.trays.length = 0;
  state.notifications.length = 0;
  state.logLines.length = 0;
  electron.Notification.isSupported.mockReturnValue(true);
  // The same app object for every import of main.ts: forget the previous run's listeners.
  electron.app.listeners.clear();
  for (const mock of [electron.app.quit, electron.app.exit, electron.app.setPath]) mock.mockClear();
  electron.app.requestSingleInstanceLock.mockClear();
  electron.clipboard.writeText.mockClear();
  electron.dialog.showMessageBox.mockClear();
  electron.ipcMain.handle.mockClear();
  vi.stubEnv('MELON_DATA_DIR', join(home, 'data'));
  vi.stubEnv('MELON_LIBRARY', join(home, 'music'));
  vi.stubEnv('MELON_HOST', '127.0.0.1');
  vi.stubEnv('MELON_PORT', '0');
  vi.stubEnv('MELON_ADMIN_PASSWORD', '');
  vi.stubEnv('XDG_CONFIG_HOME', join(home, 'config'));
});

afterEach(async () => {
  // Quit whatever a test left running, so its server stops and its store is flushed.
  if (!state.quitted && state.trays.length > 0) {
    electron.app.quit();
    await vi.waitFor(() => expect(state.quitted).toBe(true), { timeout: 10_000 });
  }
  vi.unstubAllEnvs();
  await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
  blocker = null;
  await rm(home, { recursive: true, force: true });
});

/** Imports main.ts (it starts on import) and waits for the tray to show where the server is. */
async function launch(until: RegExp = /^Melon — 127\.0\.0\.1:\d+$/): Promise<void> {
  await import('../../app/main.js');
  await vi.waitFor(() => expect(state.trays[0]?.tooltip).toMatch(until), { timeout: 10_000 });
}

const labels = () =>
  state.trays[0]!.menu.filter((item) => item.type !== 'separator').map((item) => item.label);
const click = (label: string | RegExp) => {
  const item = state.trays[0]!.menu.find((entry) =>
    typeof label === 'string' ? entry.label === label : label.test(entry.label ?? ''),
  );
  if (!item?.click) throw new Error(`no menu item ${String(label)}: ${labels().join(', ')}`);
  item.click();
};
const serverUrl = () => new URL(state.windows[0]!.url).origin;

describe('the desktop main process', () => {
  it('starts the server and opens an isolated, sandboxed settings window on /admin', async () => {
    await launch();
    expect(electron.app.requestSingleInstanceLock).toHaveBeenCalledOnce();
    // Chromium's own files stay out of the data folder.
    expect(electron.app.setPath).toHaveBeenCalledWith('sessionData', join(state.userData, 'Chromium'));
    await vi.waitFor(() => expect(state.windows[0]?.visible).toBe(true));
    const [window] = state.windows;
    expect(window!.options.webPreferences).toMatchObject({
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    });
    expect(String((window!.options.webPreferences as { preload: string }).preload)).toMatch(
      /dist[\\/]app[\\/]preload\.cjs$/,
    );
    expect(window!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/admin$/);
    expect((await fetch(`${serverUrl()}/api/health`)).status).toBe(200);
    // electron-updater only downloads when an Admin installs from the settings page.
    expect(fake.updater).toMatchObject({ autoDownload: false, autoInstallOnAppQuit: false });
    // The preload's three actions, and no other channel.
    expect(electron.ipcMain.handle.mock.calls.map(([channel]) => channel as string).sort()).toEqual([
      'melon:copy-text',
      'melon:open-data-folder',
      'melon:restart-server',
    ]);
  });

  it('shows the generated admin password once, on first start only', async () => {
    await launch();
    await vi.waitFor(() => expect(electron.dialog.showMessageBox).toHaveBeenCalledOnce());
    const options = electron.dialog.showMessageBox.mock.calls[0]![0];
    expect(options.message).toBe('Melon made the Admin account "admin".');
    expect(String(options.detail)).toMatch(/^Password: \S{12,}\n/);
  });

  it('hides the window on close, and quits cleanly: store flushed, server stopped', async () => {
    await launch();
    await vi.waitFor(() => expect(state.windows[0]?.visible).toBe(true));
    const [window] = state.windows;
    const url = serverUrl();
    // Closing the window only hides it: the tray app and its server keep running.
    expect(window!.close()).toBe(false);
    expect(window!.visible).toBe(false);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    // A second launch of Melon brings the same window back.
    electron.app.emit('second-instance');
    await vi.waitFor(() => expect(window!.visible).toBe(true));
    expect(state.windows).toHaveLength(1);

    click('Quit Melon');
    // before-quit held the quit back until the server stopped; then it went through and the
    // window's close handler did not block it (isQuitting).
    await vi.waitFor(() => expect(state.quitted).toBe(true), { timeout: 10_000 });
    expect(window!.destroyed).toBe(true);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
    expect(await readFile(join(home, 'data', 'users.json'), 'utf8')).toContain('"admin"');
  });

  it('puts every action in the tray menu; an invite code is copied and counted down', async () => {
    await launch();
    expect(labels()).toEqual([
      expect.stringMatching(/^Melon is running on 127\.0\.0\.1:\d+$/),
      'Open settings',
      expect.stringMatching(/^Copy server address \(127\.0\.0\.1:\d+\)$/),
      'Create invite code',
      'Check for updates',
      'Start at login',
      'Quit Melon',
    ]);
    click('Create invite code');
    await vi.waitFor(() => expect(electron.clipboard.writeText).toHaveBeenCalledOnce());
    const code = electron.clipboard.writeText.mock.calls[0]![0] as string;
    expect(code).toMatch(/^[A-Z2-9]{4}$/);
    expect(state.notifications).toContainEqual({
      title: `Invite code ${code}`,
      body: expect.stringMatching(/^Copied to the clipboard\. Valid for (10:00|9:[0-5]\d)/) as string,
    });
    expect(labels()).toContainEqual(
      expect.stringMatching(new RegExp(`^  ${code} — (10:00|9:[0-5]\\d) left$`)),
    );

    click(/^Copy server address/);
    expect(electron.clipboard.writeText).toHaveBeenLastCalledWith(
      expect.stringMatching(/^127\.0\.0\.1:\d+$/) as string,
    );

    click('Start at login');
    await vi.waitFor(() =>
      expect(state.trays[0]!.menu.find((item) => item.label === 'Start at login')).toMatchObject({
        checked: true,
      }),
    );
    expect(await readFile(join(home, 'config', 'autostart', 'melon.desktop'), 'utf8')).toContain('--hidden');
  });

  it('never writes an invite code to the log, even where notifications are unavailable', async () => {
    electron.Notification.isSupported.mockReturnValue(false);
    await launch();
    click('Create invite code');
    await vi.waitFor(() => expect(electron.clipboard.writeText).toHaveBeenCalledOnce());
    const code = electron.clipboard.writeText.mock.calls[0]![0] as string;
    expect(state.notifications).toEqual([]);
    await vi.waitFor(() => expect(state.logLines.join('\n')).toMatch(/notification holding a secret/));
    expect(state.logLines.join('\n')).not.toContain(code);
  });

  it('says so in a notification and the tray when the port is taken, instead of crashing', async () => {
    blocker = createNetServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    vi.stubEnv('MELON_PORT', String(port));
    await launch(/Port \d+ is in use/);
    expect(state.trays[0]!.tooltip).toBe(`Melon — Port ${port} is in use — server not running`);
    expect(state.notifications).toContainEqual({
      title: `Port ${port} is in use`,
      body: expect.stringContaining(`Port ${port} is already in use`) as string,
    });
    expect(labels()).toContain('Retry starting the server');
    expect(state.windows).toHaveLength(0);
    expect(electron.app.exit).not.toHaveBeenCalled();
    // The Admin was stored before the port was found busy: its password is still shown once.
    await vi.waitFor(() => expect(electron.dialog.showMessageBox).toHaveBeenCalledOnce());

    await new Promise<void>((resolve) => blocker!.close(() => resolve()));
    blocker = null;
    click('Retry starting the server');
    await vi.waitFor(() => expect(state.trays[0]!.tooltip).toBe(`Melon — 127.0.0.1:${port}`));
    expect(electron.dialog.showMessageBox).toHaveBeenCalledOnce();
  });

  it('leaves a second copy to the first: it quits at once without starting anything', async () => {
    state.lock = false;
    await import('../../app/main.js');
    expect(electron.app.quit).toHaveBeenCalledOnce();
    expect(state.trays).toHaveLength(0);
    expect(state.windows).toHaveLength(0);
  });
});
