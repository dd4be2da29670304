import { describe, expect, it, vi } from 'vitest';
import { IPC, MAX_COPY_LENGTH } from '../../../shared/desktop-api.js';
import { ipcHandlers } from '../../../app/ipc.js';

const origin = 'http://127.0.0.1:14524';
const fromPage = { senderFrame: { url: `${origin}/admin#invites` } };

function setup(serverOrigin: string | null = origin) {
  const actions = {
    openDataFolder: vi.fn(() => Promise.resolve()),
    copyText: vi.fn(),
    restartServer: vi.fn(() => Promise.resolve()),
  };
  return { actions, handlers: ipcHandlers(actions, () => serverOrigin) };
}

describe('ipcHandlers', () => {
  it('offers exactly the three desktop actions', () => {
    expect(Object.keys(setup().handlers).sort()).toEqual(Object.values(IPC).sort());
  });

  it('runs them for the settings page', async () => {
    const { actions, handlers } = setup();
    await handlers[IPC.openDataFolder]!(fromPage);
    await handlers[IPC.copyText]!(fromPage, '7KQX');
    await handlers[IPC.restartServer]!(fromPage);
    expect(actions.openDataFolder).toHaveBeenCalledOnce();
    expect(actions.copyText).toHaveBeenCalledWith('7KQX');
    expect(actions.restartServer).toHaveBeenCalledOnce();
  });

  it('refuses calls from any other page or when the server is down', async () => {
    const { actions, handlers } = setup();
    await expect(
      handlers[IPC.openDataFolder]!({ senderFrame: { url: 'https://evil.example/' } }),
    ).rejects.toThrow('Refused');
    await expect(handlers[IPC.openDataFolder]!({ senderFrame: null })).rejects.toThrow('Refused');
    await expect(setup(null).handlers[IPC.restartServer]!(fromPage)).rejects.toThrow('Refused');
    expect(actions.openDataFolder).not.toHaveBeenCalled();
  });

  it('refuses clipboard text that is not a short string', async () => {
    const { actions, handlers } = setup();
    await expect(handlers[IPC.copyText]!(fromPage, 42)).rejects.toThrow('invalid text');
    await expect(handlers[IPC.copyText]!(fromPage, 'x'.repeat(MAX_COPY_LENGTH + 1))).rejects.toThrow(
      'invalid text',
    );
    expect(actions.copyText).not.toHaveBeenCalled();
  });
});
