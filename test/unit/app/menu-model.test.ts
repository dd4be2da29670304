import { describe, expect, it } from 'vitest';
import { buildMenuModel, trayTooltip, type MenuItemModel, type TrayState } from '../../../app/menu-model.js';

const running: TrayState = {
  server: { kind: 'running', url: 'http://127.0.0.1:14524', addresses: ['http://192.168.1.20:14524'] },
  update: { kind: 'idle' },
  openAtLogin: false,
  invites: [],
};

const labels = (menu: MenuItemModel[]) =>
  menu.map((item) => (item.type === 'separator' ? '---' : item.label));
const find = (menu: MenuItemModel[], label: string) =>
  menu.find((item) => item.type !== 'separator' && item.label.startsWith(label)) as Exclude<
    MenuItemModel,
    { type: 'separator' }
  >;

describe('buildMenuModel', () => {
  it('holds every desktop action while the server runs', () => {
    const menu = buildMenuModel(running);
    expect(labels(menu)).toEqual([
      'Melon is running on 192.168.1.20:14524',
      '---',
      'Open settings',
      'Copy server address (192.168.1.20:14524)',
      'Create invite code',
      '---',
      'Check for updates',
      'Start at login',
      '---',
      'Quit Melon',
    ]);
    expect(find(menu, 'Open settings')).toMatchObject({ action: 'open-settings', enabled: true });
    expect(find(menu, 'Start at login')).toMatchObject({
      type: 'checkbox',
      checked: false,
      action: 'toggle-login-item',
    });
    expect(find(menu, 'Quit')).toMatchObject({ action: 'quit', enabled: true });
  });

  it('says the port is busy, offers a retry and disables what needs the server', () => {
    const menu = buildMenuModel({
      ...running,
      server: { kind: 'port-busy', port: 14524, message: 'busy' },
    });
    expect(labels(menu)[0]).toBe('Port 14524 is in use — server not running');
    expect(find(menu, 'Retry')).toMatchObject({ action: 'retry-server', enabled: true });
    for (const label of ['Open settings', 'Copy server address', 'Create invite code', 'Check for updates']) {
      expect(find(menu, label).enabled).toBe(false);
    }
    expect(find(menu, 'Quit').enabled).toBe(true);
  });

  it('counts invite codes down under Create invite code', () => {
    const menu = buildMenuModel({
      ...running,
      invites: [{ code: '7KQX', expiresAt: '', remainingMs: 581_000 }],
    });
    expect(find(menu, '  7KQX')).toMatchObject({ label: '  7KQX — 9:41 left', action: 'open-invites' });
  });

  it('follows the update check', () => {
    expect(find(buildMenuModel({ ...running, update: { kind: 'checking' } }), 'Checking')).toMatchObject({
      enabled: false,
      action: null,
    });
    expect(
      find(
        buildMenuModel({ ...running, update: { kind: 'available', current: '1.0.0', latest: '1.1.0' } }),
        'Install',
      ),
    ).toMatchObject({ label: 'Install Melon 1.1.0…', action: 'open-updates' });
    expect(
      find(buildMenuModel({ ...running, update: { kind: 'failed', message: 'x' } }), 'Check for updates')
        .enabled,
    ).toBe(true);
  });

  it('leaves out Start at login when the platform cannot tell', () => {
    expect(labels(buildMenuModel({ ...running, openAtLogin: null }))).not.toContain('Start at login');
  });

  it('falls back to the loopback address without a network', () => {
    const menu = buildMenuModel({
      ...running,
      server: { kind: 'running', url: 'http://127.0.0.1:5000', addresses: [] },
    });
    expect(labels(menu)[0]).toBe('Melon is running on 127.0.0.1:5000');
  });
});

describe('trayTooltip', () => {
  it('names the address or the problem', () => {
    expect(trayTooltip(running)).toBe('Melon — 192.168.1.20:14524');
    expect(trayTooltip({ ...running, server: { kind: 'failed', message: 'x' } })).toBe(
      'Melon — The server could not start',
    );
  });
});
