import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { buildApp } from './http/app.js';
import { routeTable } from './http/routes.js';
import type { RouteDef } from './http/types.js';
import { createLogger, type Logger } from './logger.js';
import { createServices, type Services } from './services/index.js';
import type { FirstAdmin } from './services/user-service.js';
import { openStore, type Store } from './store/index.js';

export interface ServerDeps {
  config: Config;
  clock?: Clock;
  logger?: Logger;
}

export interface MelonServer {
  readonly config: Config;
  readonly store: Store;
  readonly services: Services;
  readonly routes: RouteDef[];
  /** Set on the very first start when the Admin account was made; its password is shown once. */
  readonly firstAdmin: FirstAdmin | null;
  /** Starts listening on config.host:config.port (0 picks a free port); resolves to the base URL. */
  listen(): Promise<string>;
  /** Stops accepting, lets in-flight requests finish (at most `graceMs`), then flushes the store. */
  close(graceMs?: number): Promise<void>;
}

/** Builds the whole server: store, services, HTTP app. Used by `npm start`, the desktop app and tests. */
export async function createServer(deps: ServerDeps): Promise<MelonServer> {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger();
  const store = await openStore(config.dataDir);
  const services = createServices(config, store, clock, logger);
  const firstAdmin = await services.users.ensureFirstAdmin(config.adminUser, config.adminPassword);
  const routes = routeTable(services);
  const app = buildApp(routes, services.auth, logger);
  let http: Server | null = null;

  return {
    config,
    store,
    services,
    routes,
    firstAdmin,
    listen: () =>
      new Promise<string>((resolve, reject) => {
        const handle = app.callback();
        const server = createHttpServer((req, res) => void handle(req, res));
        server.keepAliveTimeout = 5_000;
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          http = server;
          const { port } = server.address() as AddressInfo;
          resolve(`http://${urlHost(config.host)}:${port}`);
        });
      }),
    close: async (graceMs = 4_000) => {
      if (http) {
        const server = http;
        http = null;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        await closed;
        clearTimeout(timer);
      }
      await store.close();
    },
  };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Addresses other household devices can use to reach a server bound to every interface. */
export function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((info) => info !== undefined && info.family === 'IPv4' && !info.internal)
    .map((info) => info!.address);
}
