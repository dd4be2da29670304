import { describe, expect, it, vi } from 'vitest';
import {
  isPortBusy,
  portBusyMessage,
  ServerLifecycle,
  serverOrigin,
  serverUrl,
  type EmbeddedServer,
  type ServerState,
} from '../../../app/server-lifecycle.js';
import type { Config } from '../../../server/config.js';

function fakeServer(listen: () => Promise<string>, generatedPassword: string | null = null) {
  const close = vi.fn(() => Promise.resolve());
  const server = {
    listen: vi.fn(listen),
    close,
    firstAdmin: { username: 'admin', generatedPassword },
    desktop: { addresses: () => ['http://10.0.0.2:5000'] },
  } as unknown as EmbeddedServer;
  return { server, close };
}

const config = { port: 5000 } as Config;
const busy = () => Promise.reject(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }));

describe('ServerLifecycle with a fake server', () => {
  it('starts, reports its addresses and hands out the first-Admin password once', async () => {
    const { server } = fakeServer(() => Promise.resolve('http://127.0.0.1:5000'), 'generated-pw');
    const states: ServerState['kind'][] = [];
    const lifecycle = new ServerLifecycle({
      config: () => config,
      create: () => Promise.resolve(server),
      onChange: (state) => states.push(state.kind),
    });
    expect(await lifecycle.start()).toEqual({
      kind: 'running',
      url: 'http://127.0.0.1:5000',
      addresses: ['http://10.0.0.2:5000'],
    });
    expect(states).toEqual(['starting', 'running']);
    expect(lifecycle.takeFirstAdmin()?.generatedPassword).toBe('generated-pw');
    expect(lifecycle.takeFirstAdmin()).toBeNull();
  });

  it('turns a busy port into a state, and closes the half-made server', async () => {
    const { server, close } = fakeServer(busy);
    const lifecycle = new ServerLifecycle({ config: () => config, create: () => Promise.resolve(server) });
    const state = await lifecycle.start();
    expect(state).toEqual({ kind: 'port-busy', port: 5000, message: portBusyMessage(5000) });
    expect(close).toHaveBeenCalledOnce();
    expect(lifecycle.server).toBeNull();
  });

  it('keeps the first-Admin password made before a busy port was found', async () => {
    // createServer stores the Admin before listen(); a busy port must not lose its only copy.
    const { server } = fakeServer(busy, 'generated-pw');
    const lifecycle = new ServerLifecycle({ config: () => config, create: () => Promise.resolve(server) });
    expect((await lifecycle.start()).kind).toBe('port-busy');
    expect(lifecycle.takeFirstAdmin()?.generatedPassword).toBe('generated-pw');
    expect(lifecycle.takeFirstAdmin()).toBeNull();
  });

  it('reports other failures without throwing', async () => {
    const lifecycle = new ServerLifecycle({
      config: () => {
        throw new Error('Invalid configuration: port');
      },
      create: () => Promise.reject(new Error('unreachable')),
    });
    expect(await lifecycle.start()).toEqual({ kind: 'failed', message: 'Invalid configuration: port' });
  });

  it('stops once, and restarts in order', async () => {
    const { server, close } = fakeServer(() => Promise.resolve('http://127.0.0.1:5000'));
    const create = vi.fn(() => Promise.resolve(server));
    const lifecycle = new ServerLifecycle({ config: () => config, create });
    await lifecycle.start();
    await lifecycle.start(); // already running: no second server
    expect(create).toHaveBeenCalledOnce();
    await Promise.all([lifecycle.restart(), lifecycle.restart()]);
    expect(create).toHaveBeenCalledTimes(3);
    expect(close).toHaveBeenCalledTimes(2);
    await lifecycle.stop();
    await lifecycle.stop();
    expect(close).toHaveBeenCalledTimes(3);
    expect(lifecycle.state).toEqual({ kind: 'stopped' });
  });

  it('knows a busy port', () => {
    expect(isPortBusy(Object.assign(new Error(), { code: 'EADDRINUSE' }))).toBe(true);
    expect(isPortBusy(new Error('other'))).toBe(false);
    expect(isPortBusy(null)).toBe(false);
  });

  it('gives the URL and origin of a running server only', () => {
    const running: ServerState = { kind: 'running', url: 'http://127.0.0.1:5000', addresses: [] };
    expect(serverUrl(running)).toBe('http://127.0.0.1:5000');
    expect(serverOrigin(running)).toBe('http://127.0.0.1:5000');
    expect(serverUrl({ kind: 'starting' })).toBeNull();
    expect(serverOrigin({ kind: 'port-busy', port: 5000, message: 'busy' })).toBeNull();
  });
});
