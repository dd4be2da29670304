import type Koa from 'koa';
import { AppError } from '../errors.js';
import type { RouteDef } from './endpoint.js';
import type { AppState } from './problem.js';
import { envelope, render } from './subsonic/render.js';
import { SUBSONIC_CODES } from './subsonic/errors.js';
import { LISTENBRAINZ_ROOT } from './listenbrainz/routes.js';

/** Where the server stands while the play index loads in the background (LoadingIndex). */
export interface StartState {
  /** True once every play is in the index. */
  readonly ready: boolean;
  /**
   * True once the statistics may be read, before `ready` when the plays loaded first (with the
   * counting saved for the library on disk) and the library is still being read.
   */
  readonly statsReady?: boolean;
  /** Resolves once `statsReady` (never, when the statistics wait for the whole start). */
  readonly statsSettled?: Promise<void>;
  /**
   * Resolves once the load has ended: ready, failed, or cut short by a close (neither). After that,
   * what is not ready is refused at once, until Melon starts again.
   */
  readonly settled: Promise<void>;
}

/**
 * How long a request that is not answered at once waits for the plays while Melon starts, before it
 * is refused: a start at a million plays takes about a second on a quiet machine, so most such
 * requests only wait, and a client's own timeout (10 s and more) is never reached.
 */
export const START_WAIT_MS = 5_000;
/** The Retry-After of a request refused while starting. */
export const STARTING_RETRY_AFTER_SECONDS = 5;

const MESSAGE = 'Melon is starting; try again in a few seconds';

/**
 * What is answered at once while the plays load: health, signing in and checking a sign-in, the
 * settings page. None reads or writes plays; they use the accounts, which are open before the server
 * listens. Subsonic apps sign in with `ping` and check `getLicense`; ListenBrainz scrobblers with
 * `validate-token`.
 */
const ANSWERED_AT_ONCE = new Set([
  '/api/health',
  '/auth/login',
  '/auth/check',
  '/auth/code-authenticate',
  '/admin',
  '/admin/style.css',
  '/admin/app.js',
  '/rest/ping',
  '/rest/ping.view',
  '/rest/getLicense',
  '/rest/getLicense.view',
  `${LISTENBRAINZ_ROOT}/validate-token`,
]);

/**
 * The paths of the statistics reads (docs/API.md, Statistics) of a route table, those it marks
 * `statsRead`: they need the plays and the counting, not the library, and are answered once
 * `statsReady`.
 */
export function statsReadsOf(
  routes: readonly Pick<RouteDef, 'method' | 'path' | 'statsRead'>[],
): Set<string> {
  return new Set(routes.filter((r) => r.statsRead && r.method === 'GET').map((r) => routedPath(r.path)));
}

/**
 * Whether a request to `path` is answered at once while the plays load (else it may wait, then be
 * refused). Its path as the routers match it: any case, a trailing slash or not.
 */
export function answeredWhileStarting(path: string): boolean {
  return ANSWERED_AT_ONCE.has(routedPath(path));
}

const routedPath = (path: string): string => path.replace(/(?<=.)\/+$/u, '').toLowerCase();

/**
 * The one rule for requests that come while the play index still loads (docs/API.md, Starting):
 * those of ANSWERED_AT_ONCE (and preflights) go on, and the statistics reads once `statsReady`;
 * every other waits for the load, at most `waitMs` and not at all once it ended without the
 * plays (it failed), then goes on,
 * or is refused with 503 `starting` and Retry-After, in the caller's API's own error shape. A
 * refused write wrote nothing. `/api/health` says `"status": "starting"` until the load ends.
 */
export function startingGate(
  state: StartState,
  version: string,
  /** The statistics reads' paths (statsReadsOf). */
  statsReads: ReadonlySet<string>,
  waitMs = START_WAIT_MS,
): Koa.Middleware<AppState> {
  // The waiting requests, released together when the load ends. One reaction to the load, not one
  // per request: a load that never ends (it failed) must not gather a reaction per request refused.
  const waiting = new Set<() => void>();
  // Statistics reads, released once the statistics are ready, if that comes first.
  const waitingStats = new Set<() => void>();
  let settled = false;
  void state.settled.then(() => {
    settled = true;
    for (const release of waiting) release();
  });
  void state.statsSettled?.then(() => {
    for (const release of waitingStats) release();
  });
  const loaded = (stats: boolean): Promise<boolean> =>
    new Promise((resolve) => {
      if (settled) return resolve(state.ready);
      const release = () => {
        clearTimeout(timer);
        waiting.delete(release);
        waitingStats.delete(release);
        resolve(state.ready || (stats && state.statsReady === true));
      };
      const timer = setTimeout(release, waitMs);
      waiting.add(release);
      if (stats) waitingStats.add(release);
    });
  return async (ctx, next) => {
    if (!state.ready && routedPath(ctx.path) === '/api/health' && ctx.method === 'GET') {
      ctx.body = { status: 'starting', version };
      return;
    }
    // A preflight reads and writes nothing: its API answers it (ListenBrainz allows any origin).
    const atOnce = ctx.method === 'OPTIONS' || answeredWhileStarting(ctx.path);
    // The statistics may be ready first; a read waiting for them goes on once the plays are in.
    const stats = (ctx.method === 'GET' || ctx.method === 'HEAD') && statsReads.has(routedPath(ctx.path));
    if (state.ready || atOnce || (stats && state.statsReady) || (await loaded(stats))) await next();
    else refuse(ctx, version);
  };
}

function refuse(ctx: Koa.ParameterizedContext<AppState>, version: string): void {
  const retryAfter = String(STARTING_RETRY_AFTER_SECONDS);
  if (ctx.path === '/rest' || ctx.path.startsWith('/rest/')) {
    // Subsonic apps show a failed answer's message and treat other HTTP statuses as a network fault:
    // HTTP 200, `status="failed"`, as every Subsonic error (and `busy`) is answered.
    const format = /^jsonp?$/i.test(String(ctx.query.f ?? '')) ? 'json' : 'xml';
    const failure = envelope('failed', version, {
      error: { code: SUBSONIC_CODES.generic, message: MESSAGE },
    });
    const { text, type } = render(format, failure);
    ctx.set('Retry-After', retryAfter);
    ctx.type = type;
    ctx.body = text;
    return;
  }
  if (ctx.path === LISTENBRAINZ_ROOT || ctx.path.startsWith(`${LISTENBRAINZ_ROOT}/`)) {
    // ListenBrainz's own shape: a scrobbler keeps a listen a server error refused and sends it later.
    ctx.status = 503;
    ctx.set('Retry-After', retryAfter);
    // As every ListenBrainz answer: a browser extension must be able to read it.
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = { code: 503, error: `${MESSAGE}.` };
    return;
  }
  throw new AppError('starting', MESSAGE, {}, { 'Retry-After': retryAfter });
}
