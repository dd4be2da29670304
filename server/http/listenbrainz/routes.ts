import type Koa from 'koa';
import type { Clock } from '../../clock.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../json-depth.js';
import type { Principal } from '../../domain/user.js';
import type { Logger } from '../../logger.js';
import type { HistoryService } from '../../services/history/history-service.js';
import { badRequest, ListenBrainzError, listenBrainzErrors, unauthorized } from './errors.js';
import { MAX_LISTEN_PAYLOAD_SIZE, readSubmission } from './submission.js';

/** Who a scrobbler's token is: a Melon API key resolved to its account (with its role), or null. */
export interface ScrobblerTokens {
  authenticate(token: string): Principal | null;
}

export interface ListenBrainzDeps {
  tokens: ScrobblerTokens;
  history: HistoryService;
  clock: Clock;
  logger: Logger;
}

/** Where scrobblers are pointed: their "custom ListenBrainz URL" is `http://<melon>/listenbrainz/1/`. */
export const LISTENBRAINZ_ROOT = '/listenbrainz/1';

type Handler = (ctx: Koa.Context, deps: ListenBrainzDeps) => Promise<object> | object;

/** The adapter's route table: ListenBrainz's paths under the root, and who may call them. */
const ROUTES: Array<{ method: 'GET' | 'POST'; path: string; handler: Handler }> = [
  { method: 'POST', path: '/submit-listens', handler: submitListens },
  { method: 'GET', path: '/validate-token', handler: validateToken },
];

/**
 * The ListenBrainz submission API (docs/API.md, ListenBrainz): a thin adapter that reads
 * ListenBrainz's documents and token header, calls the history service, and answers in
 * ListenBrainz's shapes. Token-authenticated only (no cookies), so, like ListenBrainz, it answers
 * browsers of any origin (browser-extension scrobblers send an Origin).
 */
export function listenBrainzAdapter(deps: ListenBrainzDeps): Koa.Middleware {
  const errors = listenBrainzErrors(deps.logger);
  return async (ctx, next) => {
    if (ctx.path !== LISTENBRAINZ_ROOT && !ctx.path.startsWith(`${LISTENBRAINZ_ROOT}/`)) {
      await next();
      return;
    }
    ctx.set('Access-Control-Allow-Origin', '*');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', 'Authorization, Content-Type');
      ctx.set('Access-Control-Max-Age', '86400');
      ctx.status = 204;
      return;
    }
    await errors(ctx, async () => {
      const sub = ctx.path.slice(LISTENBRAINZ_ROOT.length).replace(/\/+$/u, '');
      const route = ROUTES.find((r) => r.path === sub);
      if (!route)
        throw new ListenBrainzError(404, `Melon serves only submit-listens and validate-token, not ${sub}.`);
      if (route.method !== ctx.method && !(route.method === 'GET' && ctx.method === 'HEAD')) {
        ctx.set('Allow', route.method);
        throw new ListenBrainzError(405, `${sub} takes ${route.method} requests.`);
      }
      ctx.type = 'application/json';
      ctx.body = await route.handler(ctx, deps);
    });
  };
}

/** The key of `Authorization: Token <key>` (ListenBrainz's scheme; `Bearer` is taken too). */
function tokenOf(ctx: Koa.Context): string | null {
  const match = /^(?:Token|Bearer)\s+(\S+)\s*$/iu.exec(ctx.get('Authorization'));
  return match ? match[1]! : null;
}

async function submitListens(ctx: Koa.Context, { tokens, history, clock }: ListenBrainzDeps) {
  const token = tokenOf(ctx);
  if (!token) throw unauthorized('You need to provide an Authorization header.');
  const principal = tokens.authenticate(token);
  if (!principal?.userId) throw unauthorized('Invalid authorization token.');
  if (principal.role !== 'Admin' && principal.role !== 'User')
    throw unauthorized(`A ${principal.role} account may not submit listens.`);
  const userId = principal.userId;
  const body = await readJson(ctx);
  const submission = readSubmission(body.document, body.bytes, clock.now());
  if (submission.type === 'playing_now') {
    const { durationMs, ...listen } = submission.listens[0]!;
    await history.playingNow({ ...listen, userId, source: 'listenbrainz-api' }, durationMs);
    return { status: 'ok' };
  }
  await history.record(
    submission.listens.map(({ durationMs: _unused, ...listen }) => ({
      ...listen,
      userId,
      source: 'listenbrainz-api' as const,
    })),
  );
  return { status: 'ok' };
}

function validateToken(ctx: Koa.Context, { tokens }: ListenBrainzDeps) {
  const fromQuery = typeof ctx.query.token === 'string' && ctx.query.token !== '' ? ctx.query.token : null;
  const token = tokenOf(ctx) ?? fromQuery;
  if (!token) throw badRequest('You need to provide an Authorization header.');
  const principal = tokens.authenticate(token);
  if (!principal) return { code: 200, message: 'Token invalid.', valid: false };
  return { code: 200, message: 'Token valid.', valid: true, user_name: principal.username };
}

/** The JSON body and its size, read up to ListenBrainz's payload limit (a bigger body is refused unread). */
async function readJson(ctx: Koa.Context): Promise<{ document: unknown; bytes: number }> {
  const declared = Number(ctx.get('Content-Length') || '0');
  if (declared > MAX_LISTEN_PAYLOAD_SIZE) throw tooLarge(ctx);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_LISTEN_PAYLOAD_SIZE) throw tooLarge(ctx);
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch (error) {
    throw badRequest(`Cannot parse JSON document: ${error instanceof Error ? error.message : 'not JSON'}`);
  }
  if (nestsDeeperThan(body))
    throw badRequest(`The JSON document is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  return { document: body, bytes: size };
}

/** A 400, as ListenBrainz answers it (not 413); the rest of the body is not read, and the connection closes. */
function tooLarge(ctx: Koa.Context): ListenBrainzError {
  ctx.set('Connection', 'close');
  return badRequest(`Payload too large. Payload cannot exceed ${MAX_LISTEN_PAYLOAD_SIZE} bytes`);
}
