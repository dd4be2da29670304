import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC, type MelonDesktop } from '../../../shared/desktop-api.js';

const electron = vi.hoisted(() => ({
  exposeInMainWorld: vi.fn(),
  invoke: vi.fn((..._args: unknown[]) => Promise.resolve()),
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: electron.exposeInMainWorld },
  ipcRenderer: { invoke: electron.invoke },
}));

describe('preload', () => {
  beforeEach(async () => {
    vi.resetModules();
    electron.exposeInMainWorld.mockClear();
    electron.invoke.mockClear();
    await import('../../../app/preload.js');
  });

  it('exposes only the three desktop actions as window.melonDesktop', () => {
    expect(electron.exposeInMainWorld).toHaveBeenCalledOnce();
    const [name, api] = electron.exposeInMainWorld.mock.calls[0] as [string, Record<string, unknown>];
    expect(name).toBe('melonDesktop');
    expect(Object.keys(api).sort()).toEqual(['copyText', 'openDataFolder', 'restartServer']);
    expect(Object.values(api).every((value) => typeof value === 'function')).toBe(true);
  });

  it('forwards each to its IPC channel', async () => {
    const api = electron.exposeInMainWorld.mock.calls[0]![1] as MelonDesktop;
    await api.openDataFolder();
    await api.copyText('7KQX');
    await api.restartServer();
    expect(electron.invoke.mock.calls).toEqual([
      [IPC.openDataFolder],
      [IPC.copyText, '7KQX'],
      [IPC.restartServer],
    ]);
  });
});
