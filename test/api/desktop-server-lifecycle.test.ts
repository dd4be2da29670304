import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createNetServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerLifecycle } from '../../app/server-lifecycle.js';
import { loadConfig, type Config } from '../../server/config.js';
import { createServer } from '../../server/create-server.js';
import { createMemoryLogger } from '../../server/logger.js';

describe('ServerLifecycle with the real server', () => {
  let dataDir = '';
  let blocker: Server | null = null;
  afterEach(async () => {
    await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
    blocker = null;
    await rm(dataDir, { recursive: true, force: true });
  });

  const deps = (port: number) => ({
    config: () =>
      loadConfig(
        { MELON_ADMIN_PASSWORD: 'correct horse battery' },
        { dataDir, port, host: '127.0.0.1', libraryDirs: [] },
      ),
    create: (cfg: Config) => createServer({ config: cfg, logger: createMemoryLogger(), scanOnStart: false }),
  });

  it('says the port is taken instead of crashing, then starts once it is free', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'melon-life-'));
    blocker = createNetServer();
    await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    const lifecycle = new ServerLifecycle(deps(port));
    expect(await lifecycle.start()).toMatchObject({ kind: 'port-busy', port });

    await new Promise<void>((resolve) => blocker!.close(() => resolve()));
    blocker = null;
    const state = await lifecycle.start();
    expect(state).toMatchObject({ kind: 'running', url: `http://127.0.0.1:${port}` });
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    await lifecycle.stop();
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    // The Admin made on first start is on disk once the server has stopped.
    expect(await readFile(join(dataDir, 'users.json'), 'utf8')).toContain('"admin"');
  });
});
