import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../server/clock.js';
import { buildApp } from '../../server/http/app.js';
import { createMemoryLogger, type Logger } from '../../server/logger.js';
import { AuthService } from '../../server/services/auth-service.js';
import { TokenSigner } from '../../server/services/tokens.js';
import { UsersRepo } from '../../server/store/users-repo.js';

/**
 * The real HTTP app (its middleware, error handling and request log) over the given routes alone,
 * on 127.0.0.1 and a free port: for what the app does around a handler that no real route does on
 * demand (a handler that hangs, or throws). The routes are public: the users file stays empty.
 */
export async function serveRoutes(
  routes: Parameters<typeof buildApp>[0],
  logger: Logger = createMemoryLogger(),
): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  const clock = new ManualClock();
  const users = await UsersRepo.open(join(await mkdtemp(join(tmpdir(), 'melon-routes-')), 'users.json'));
  const auth = new AuthService(users, new TokenSigner(Buffer.alloc(32), clock), clock, 60);
  const handle = buildApp(routes, auth, logger).callback();
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
