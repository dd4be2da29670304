import { performance } from 'node:perf_hooks';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { Invite } from './contract/auth.js';
import type { UpdateCheckAnswer } from './contract/updates.js';
import { buildApp } from './http/app.js';
import { routeTable } from './http/native/routes.js';
import { subsonicApi } from './http/subsonic/router.js';
import type { RouteDef } from './http/endpoint.js';
import type { Principal } from './domain/user.js';
import type { HeapGrowth } from './heap-growth.js';
import { scanLibrary } from './library/scanner.js';
import { createLogger, type Logger } from './logger.js';
import { createServices, type Services } from './services/create-services.js';
import type { LibraryOptions, Scanner } from './services/library-service.js';
import { LoadingIndex } from './services/stats/loading-index.js';
import { openStoreWithIndex } from './services/stats/persistence/index-saving.js';
import { StatsIndex } from './services/stats/stats-index.js';
import { laterTurn, nextTurn } from './services/next-turn.js';
import type { Installer } from './services/updates/update-service.js';
import type { FirstAdmin } from './services/user-service.js';
import { answerClientError } from './http/client-error.js';
import { listenBrainzAdapter } from './http/listenbrainz/routes.js';
import { startingGate, statsReadsOf, type StartState } from './http/starting.js';
import { warmUp, warmUpSecret } from './http/warm-up.js';
import { startLoads } from './start-loads.js';
import type { Store } from './store/open-store.js';

export interface ServerDeps {
  config: Config;
  clock?: Clock;
  logger?: Logger;
  /** The desktop app's electron-updater installer; headless uses the built-in one. */
  installer?: Installer;
  /** Replaces the library scanner (tests). */
  scanner?: Scanner;
  /** Ends the process after an installer has started (default: process.exit). */
  exit?: (code: number) => void;
  /** Scan the library on start (default true; in the background). */
  scanOnStart?: boolean;
  /** Watching the music folders for changes (default on; tests shorten its timings or turn it off). */
  library?: LibraryOptions;
  /** Replaces some of the HTTP server's limits (tests use short timeouts). */
  httpLimits?: Partial<HttpLimits>;
  /**
   * The wait before reading the library and between steps of the play index's load at start
   * (default: a turn of the event loop); tests hold the start with it.
   */
  loadTurn?: () => Promise<void>;
  /**
   * The wait before reading the library and between its steps (default: `loadTurn` when given, else
   * laterTurn); tests hold the library's read with it.
   */
  libraryTurn?: () => Promise<void>;
  /** How long a request that needs the plays waits for their load at start (http/starting.ts). */
  startWaitMs?: number;
  /** How long after a stop began the play counting may still be made (start-loads.ts). */
  countingWithinMs?: number;
  /** The process's heap growth, which the entry points tighten (heap-growth.ts): scans relax it. */
  heapGrowth?: HeapGrowth;
}

/**
 * How long a client may take and how many may connect at once. Node's defaults hold a request that
 * trickles in for 300 s, and any number of them: a few slow clients could keep every socket busy.
 */
export interface HttpLimits {
  /**
   * The whole request, headers and body, must have arrived by then (else 408). Uploads are up to
   * 20 MiB: 120 s lets them come over a link of 1.4 Mbit/s.
   */
  requestTimeoutMs: number;
  /**
   * The request line and headers must have arrived by then (else 408). Node starts this clock at a
   * request's first byte, not when a kept-alive connection goes idle, so it may be far below
   * `keepAliveTimeoutMs`.
   */
  headersTimeoutMs: number;
  /**
   * An idle kept-alive connection is closed after this (advertised as `Keep-Alive: timeout=`; Node
   * holds it one second longer). Clients that ignore the advertised value keep idle connections for
   * up to 300 s (OkHttp, which most Android players use; browsers) and fetch trims it by only a
   * second or two: a server that closed first would reset a request sent on a connection it had
   * just dropped. The server must outlast its clients.
   */
  keepAliveTimeoutMs: number;
  /** Connections beyond this many are closed as they arrive. */
  maxConnections: number;
}

export const HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: 120_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 310_000,
  maxConnections: 256,
};

export interface MelonServer {
  readonly config: Config;
  readonly store: Store;
  readonly services: Services;
  readonly routes: RouteDef[];
  /** What the desktop shell (app/) may ask of the server: the tray's actions, no HTTP. */
  readonly desktop: DesktopFacade;
  /** Set on the very first start when the Admin account was made; its password is shown once. */
  readonly firstAdmin: FirstAdmin | null;
  /** Appends what the stats index gained since its last save to plays.index (done while serving too). */
  saveStatsIndex(): Promise<void>;
  /** Starts listening on config.host:config.port (0 picks a free port); resolves to the base URL. */
  listen(): Promise<string>;
  /**
   * Resolves once the plays have loaded (a saved index loads in the background once the server
   * listens: it answers sign-ins meanwhile and holds the rest, http/starting.ts) and the library is
   * being watched.
   */
  readonly started: Promise<void>;
  /** Stops accepting, lets in-flight requests finish (at most `graceMs`), then flushes the store. */
  close(graceMs?: number): Promise<void>;
}

/** The tray's view of the server; it has no signed-in user, so its actions run as the desktop owner. */
export interface DesktopFacade {
  /** Base URLs household devices can use (empty until listening). */
  addresses(): string[];
  /** An invite code made by the desktop owner (the tray's "Create invite code"). */
  createInvite(): Promise<Invite>;
  /** Asks the release feed for a newer version (the tray's "Check for updates"). */
  checkForUpdates(): Promise<UpdateCheckAnswer>;
}

/** Whoever sits at the machine running the desktop app: its owner, so an Admin without an account. */
const DESKTOP_OWNER: Principal = {
  userId: null,
  username: 'desktop',
  role: 'Admin',
  expiresAt: Infinity,
  inviteId: null,
};

function desktopFacade(services: Services): DesktopFacade {
  return {
    addresses: () => services.serverInfo().addresses,
    createInvite: () => services.invites.create(DESKTOP_OWNER),
    checkForUpdates: () => services.updates.check({ mayAsk: true, refresh: true }),
  };
}

/**
 * How long after a stop began the play counting may still be made: the rest of the stop takes
 * little once the requests are done, so a stop ends within the 5 s README promises (a supervisor
 * kills what does not), and one slowed by lingering requests leaves the counting for later.
 */
const COUNTING_WITHIN_MS = 4_000;

/** Builds the whole server: store, services, HTTP app. Used by `npm start`, the desktop app and tests. */
export async function createServer(deps: ServerDeps): Promise<MelonServer> {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger();
  // The stats index is built from the play log while the store opens, then kept current on append;
  // a saved index loads in the background while the server answers (LoadingIndex).
  const statsIndex = new StatsIndex();
  const loadTurn = deps.loadTurn ?? nextTurn;
  const loading = new LoadingIndex(statsIndex, loadTurn);
  // library.json is read once the server listens too (openLibrary): at a collector's size it takes
  // seconds.
  const indexed = await openStoreWithIndex(config.dataDir, { logger, index: loading, libraryLater: true });
  const { store } = indexed;
  let port: number | null = null;
  const services = createServices(config, store, clock, logger, {
    statsIndex,
    installer: deps.installer,
    scanner: relaxedScans(deps.scanner ?? scanLibrary, deps.heapGrowth),
    // Folders that give no change events (network shares) are rescanned every MELON_RESCAN_MINUTES.
    library: {
      ...deps.library,
      watchOptions: { pollIntervalMs: config.rescanMinutes * 60_000, ...deps.library?.watchOptions },
    },
    exit: deps.exit,
    beforeExit: () => close(),
    serverInfo: () => ({
      version: config.version,
      addresses: port === null ? [] : serverAddresses(config.host, port),
    }),
  });
  // Begun once the server listens (and is warmed up): its steps would otherwise share the turns of
  // the event loop with the rest of the start and the warm-up, and delay listening.
  const loads = startLoads({
    indexed,
    loading,
    statsIndex,
    services,
    logger,
    loadTurn,
    // The library's read gives way to a request's own work: once the statistics answer before it, a
    // first statistics read settles its listener ahead of it.
    libraryTurn: deps.libraryTurn ?? deps.loadTurn ?? laterTurn,
    closed: () => closing !== null,
    countingEnds: () => stopBegan + (deps.countingWithinMs ?? COUNTING_WITHIN_MS),
  });
  const playsLoaded = loads.loaded;
  const firstAdmin = await services.users
    .ensureFirstAdmin(config.adminUser, config.adminPassword)
    .catch(async (error: unknown) => {
      // Not started, so nobody else will close the store: let go of the data folder for a retry.
      await indexed.close().catch(() => undefined);
      throw error;
    });
  const routes = routeTable(services);
  const subsonic = subsonicApi(services, {
    clock,
    logger,
    resizer: services.resizer,
    apiKeys: (key, client) => services.apiKeys.authenticate(key, client),
    started: playsLoaded,
  });
  // The search indexes and the album orders are made in steps once the plays are loaded, not at
  // the first search or album list; a failure leaves them to that request.
  void playsLoaded.then(() => services.search.warm()).catch(() => undefined);
  void playsLoaded.then(() => services.library.warmOrders()).catch(() => undefined);
  let http: Server | null = null;
  let closing: Promise<void> | null = null;
  // What reads or writes plays outside a request starts once they are all loaded: imports a stop
  // interrupted run again (their progress says where they were), then the library is watched and
  // scanned. Until then requests that need the plays wait or are refused (http/starting.ts).
  let listening = false;
  let ready = false;
  let libraryStarted = false;
  const startLibrary = () => {
    if (libraryStarted || !listening || !ready || closing) return;
    libraryStarted = true;
    services.library.start({ scan: deps.scanOnStart ?? true });
  };
  const started = playsLoaded.then(async () => {
    if (closing) return;
    await services.imports.resume().catch((error: unknown) => {
      logger.error('could not resume the interrupted imports', { error: String(error) });
    });
    ready = true;
    startLibrary();
  });
  const startState: StartState = {
    get ready() {
      return ready;
    },
    get statsReady() {
      return loads.statsReady;
    },
    settled: Promise.race([started, loads.failure]),
    statsSettled: loads.statsLoaded,
  };
  const warmUpKey = warmUpSecret();
  const app = buildApp(routes, services.auth, logger, {
    allowedHosts: config.allowedHosts,
    warmUpSecret: warmUpKey,
    // A scrobbler's ListenBrainz token is a Melon API key (docs/API.md, ListenBrainz).
    headerTokenAdapters: [
      listenBrainzAdapter({ tokens: services.apiKeys, history: services.history, clock, logger }),
    ],
    adapters: [subsonic],
    starting: startingGate(startState, config.version, statsReadsOf(routes), deps.startWaitMs),
  });
  // Listens still in an outbox go out again.
  services.forwarding.start();

  // When the stop began, for the time the counting may take (performance.now()).
  let stopBegan = Infinity;
  const close = (graceMs = 4_000): Promise<void> => {
    closing ??= (async () => {
      stopBegan = performance.now();
      if (http) {
        const server = http;
        http = null;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        await closed;
        clearTimeout(timer);
      }
      // A scan writes only when it finishes; one still running is stopped (its worker threads too,
      // which would outlive a server the desktop app restarts) and the next start redoes it. This
      // also stops the folder watcher. A scan held in a call to a share that stopped answering
      // cannot stop until the call returns: the close waits for it no longer than its grace.
      await withinMs(services.library.stopScanning(), graceMs);
      // A running import stops after its current batch and resumes at the next start.
      await services.imports.stop();
      await services.forwarding.close();
      await services.artwork.close().catch(() => undefined);
      await services.resizer.close().catch(() => undefined);
      await indexed.close();
    })();
    return closing;
  };

  return {
    config,
    store,
    services,
    routes,
    desktop: desktopFacade(services),
    firstAdmin,
    started,
    saveStatsIndex: () => indexed.saveIndex(),
    listen: () =>
      new Promise<string>((resolve, reject) => {
        const handle = app.callback();
        const limits = { ...HTTP_LIMITS, ...deps.httpLimits };
        const server = createHttpServer(
          {
            requestTimeout: limits.requestTimeoutMs,
            headersTimeout: limits.headersTimeoutMs,
            keepAliveTimeout: limits.keepAliveTimeoutMs,
            // Node checks the two timeouts every 30 s by default: a timeout would come up to 30 s late.
            connectionsCheckingInterval: Math.min(1_000, Math.floor(limits.headersTimeoutMs / 2)),
          },
          (req, res) => void handle(req, res),
        );
        server.maxConnections = limits.maxConnections;
        server.on('clientError', answerClientError);
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          http = server;
          port = (server.address() as AddressInfo).port;
          listening = true;
          startLibrary();
          const url = `http://${urlHost(config.host)}:${port}`;
          void warmUp(url, warmUpKey).then(() => {
            resolve(url);
            loads.begin();
          });
        });
      }),
    close,
  };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Base URLs household devices can use: the LAN addresses when bound to every interface. */
function serverAddresses(host: string, port: number): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [`http://${urlHost(host)}:${port}`];
  const lan = lanAddresses().map((address) => `http://${address}:${port}`);
  return lan.length > 0 ? lan : [`http://127.0.0.1:${port}`];
}

/** Addresses other household devices can use to reach a server bound to every interface. */
export function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((info) => info !== undefined && info.family === 'IPv4' && !info.internal)
    .map((info) => info!.address);
}

/** A scan makes garbage fast: it runs with V8's own heap growth (heap-growth.ts). */
function relaxedScans(scanner: Scanner, heap: HeapGrowth | undefined): Scanner {
  if (!heap) return scanner;
  return (...scan) => heap.relaxedDuring(() => scanner(...scan));
}

/** Resolves when `work` settles or after `ms`, whichever comes first. */
async function withinMs(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
