import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  let openAtLogin = false;
  return {
    getLoginItemSettings: vi.fn(() => ({ openAtLogin })),
    setLoginItemSettings: vi.fn((settings: { openAtLogin: boolean }) => {
      openAtLogin = settings.openAtLogin;
    }),
  };
});

vi.mock('electron', () => ({ app: electron }));

const { autostartEntry, autostartFile, getOpenAtLogin, HIDDEN_ARG, setOpenAtLogin } =
  await import('../../../app/login-item.js');

describe('login item on Windows and macOS', () => {
  const env = {
    platform: 'win32' as const,
    env: {},
    execPath: 'C:\\Melon\\Melon.exe',
    home: 'C:\\Users\\ann',
  };

  it('uses Electron’s login-item settings, starting hidden in the tray', async () => {
    expect(await getOpenAtLogin(env)).toBe(false);
    expect(await setOpenAtLogin(true, env)).toBe(true);
    expect(electron.setLoginItemSettings).toHaveBeenCalledWith({
      openAtLogin: true,
      openAsHidden: true,
      args: [HIDDEN_ARG],
    });
    expect(await setOpenAtLogin(false, env)).toBe(false);
  });
});

describe('login item on Linux', () => {
  let home = '';
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'melon-login-'));
    electron.setLoginItemSettings.mockClear();
  });
  afterEach(async () => rm(home, { recursive: true, force: true }));

  it('writes and removes an XDG autostart entry', async () => {
    const env = { platform: 'linux' as const, env: {}, execPath: '/opt/Melon/melon', home };
    expect(await getOpenAtLogin(env)).toBe(false);
    expect(await setOpenAtLogin(true, env)).toBe(true);
    const file = autostartFile(env);
    expect(file).toBe(join(home, '.config', 'autostart', 'melon.desktop'));
    expect(await readFile(file, 'utf8')).toContain(`Exec="/opt/Melon/melon" ${HIDDEN_ARG}`);
    expect(await setOpenAtLogin(false, env)).toBe(false);
    expect(electron.setLoginItemSettings).not.toHaveBeenCalled();
  });

  it('starts the AppImage itself and honours XDG_CONFIG_HOME', () => {
    const env = {
      platform: 'linux' as const,
      env: { APPIMAGE: '/home/ann/Apps/Melon "1".AppImage', XDG_CONFIG_HOME: '/cfg' },
      execPath: '/tmp/.mount_x/melon',
      home: '/home/ann',
    };
    expect(autostartFile(env)).toBe(join('/cfg', 'autostart', 'melon.desktop'));
    expect(autostartEntry(env)).toContain('Exec="/home/ann/Apps/Melon \\"1\\".AppImage" --hidden');
  });
});
