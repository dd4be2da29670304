import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerState } from '../../../app/server-lifecycle.js';
import { QuitState } from '../../../app/window-state.js';

/** app/settings-window.ts with `electron` mocked: one isolated window that stays on the server. */
type Listener = (...args: unknown[]) => unknown;

const fake = vi.hoisted(() => {
  class Emitter {
    listeners = new Map<string, Listener>();
    on(event: string, listener: Listener) {
      this.listeners.set(event, listener);
      return this;
    }
  }
  const event = () => ({
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  });
  class FakeWindow extends Emitter {
    static all: FakeWindow[] = [];
    url = '';
    visible = false;
    openHandler: ((details: { url: string }) => { action: string }) | null = null;
    permissions = {
      request: null as Listener | null,
      check: null as Listener | null,
      device: null as Listener | null,
    };
    webContents = Object.assign(new Emitter(), {
      setWindowOpenHandler: (handler: (details: { url: string }) => { action: string }) => {
        this.openHandler = handler;
      },
      session: {
        setPermissionRequestHandler: (handler: Listener) => (this.permissions.request = handler),
        setPermissionCheckHandler: (handler: Listener) => (this.permissions.check = handler),
        setDevicePermissionHandler: (handler: Listener) => (this.permissions.device = handler),
      },
    });
    constructor(readonly options: Record<string, unknown>) {
      super();
      FakeWindow.all.push(this);
    }
    loadURL = vi.fn((url: string) => {
      this.url = url;
      return Promise.resolve();
    });
    show = () => (this.visible = true);
    hide = () => (this.visible = false);
    focus = vi.fn();
    restore = vi.fn();
    isMinimized = () => false;
    getNormalBounds = () => ({ x: 10, y: 20, width: 900, height: 700 });
    close() {
      const closeEvent = event();
      this.listeners.get('close')?.(closeEvent);
      if (!closeEvent.defaultPrevented) this.listeners.get('closed')?.();
      return closeEvent;
    }
  }
  return {
    FakeWindow,
    event,
    electron: {
      BrowserWindow: FakeWindow,
      dialog: {
        showMessageBox: vi.fn((_options: Record<string, unknown>) => Promise.resolve({ response: 0 })),
      },
      screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
      shell: { openExternal: vi.fn() },
    },
  };
});
vi.mock('electron', () => fake.electron);

const { SettingsWindow } = await import('../../../app/settings-window.js');
const { electron, FakeWindow } = fake;

let dir = '';
let state: ServerState = { kind: 'starting' };
let quit = new QuitState();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'melon-window-'));
  FakeWindow.all.length = 0;
  electron.dialog.showMessageBox.mockClear();
  electron.shell.openExternal.mockClear();
  quit = new QuitState();
  state = { kind: 'running', url: 'http://127.0.0.1:5000', addresses: [] };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const settingsWindow = () =>
  new SettingsWindow({
    files: {
      preload: '/app/preload.cjs',
      windowIcon: '/icons/icon.png',
      windowState: join(dir, 'window.json'),
    },
    quit,
    server: () => state,
  });

describe('SettingsWindow', () => {
  it('says why instead of opening when the server is not running', async () => {
    state = { kind: 'port-busy', port: 5000, message: 'Port 5000 is already in use' };
    await settingsWindow().show();
    expect(FakeWindow.all).toEqual([]);
    expect(electron.dialog.showMessageBox.mock.calls[0]![0]).toMatchObject({
      type: 'warning',
      message: 'The server is not running.',
      detail: 'Port 5000 is already in use',
    });
    state = { kind: 'starting' };
    await settingsWindow().show();
    expect(electron.dialog.showMessageBox.mock.calls[1]![0]).toMatchObject({
      detail: 'It is still starting.',
    });
  });

  it('opens one isolated window on /admin, and a tab of it on request', async () => {
    const shell = settingsWindow();
    await shell.show();
    const [window] = FakeWindow.all;
    expect(window!.options).toMatchObject({
      width: 960,
      height: 720,
      show: false,
      webPreferences: {
        contextIsolation: true,
        nodeIntegration: false,
        sandbox: true,
        preload: '/app/preload.cjs',
      },
    });
    expect(window!.url).toBe('http://127.0.0.1:5000/admin');
    expect(window!.visible).toBe(true);
    await shell.show();
    expect(window!.loadURL).toHaveBeenCalledOnce();
    await shell.show('invites');
    expect(window!.url).toBe('http://127.0.0.1:5000/admin#invites');
    await shell.reload('http://127.0.0.1:6000');
    expect(window!.url).toBe('http://127.0.0.1:6000/admin');
    expect(FakeWindow.all).toHaveLength(1);
  });

  it('stays on the server: other https pages open in the browser, anything else is blocked', async () => {
    await settingsWindow().show();
    const [window] = FakeWindow.all;
    const navigate = (url: string) => {
      const navigation = fake.event();
      window!.webContents.listeners.get('will-navigate')!(navigation, url);
      return navigation.defaultPrevented;
    };
    expect(navigate('http://127.0.0.1:5000/admin#stats')).toBe(false);
    expect(navigate('https://example.org/help')).toBe(true);
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://example.org/help');
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(window!.openHandler!({ url: 'https://example.org/notes' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(2);
  });

  it('grants its page no permission: requests, checks and devices are all denied', async () => {
    await settingsWindow().show();
    const { permissions } = FakeWindow.all[0]!;
    for (const permission of ['clipboard-sanitized-write', 'notifications', 'media', 'geolocation']) {
      const grant = vi.fn();
      permissions.request!(null, permission, grant, { requestingUrl: 'http://127.0.0.1:5000/admin' });
      expect(grant, permission).toHaveBeenCalledWith(false);
      expect(permissions.check!(null, permission, 'http://127.0.0.1:5000', {}), permission).toBe(false);
    }
    expect(permissions.device!({ deviceType: 'usb', origin: 'http://127.0.0.1:5000' })).toBe(false);
  });

  it('hides on close and saves its bounds; closes for real when quitting', async () => {
    const shell = settingsWindow();
    await shell.show();
    const [window] = FakeWindow.all;
    expect(window!.close().defaultPrevented).toBe(true);
    expect(window!.visible).toBe(false);
    await vi.waitFor(async () =>
      expect(JSON.parse(await readFile(join(dir, 'window.json'), 'utf8'))).toEqual({
        x: 10,
        y: 20,
        width: 900,
        height: 700,
      }),
    );
    quit.isQuitting = true;
    expect(window!.close().defaultPrevented).toBe(false);
    // Closed: the next show makes a new window.
    await shell.show();
    expect(FakeWindow.all).toHaveLength(2);
  });
});
