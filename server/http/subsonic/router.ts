import type Koa from 'koa';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Services } from '../../services/create-services.js';
import { formBody } from '../body.js';
import { refererIsForeign } from '../cross-origin.js';
import type { AppState } from '../problem.js';
import { authenticateSubsonic, type ApiKeyVerifier } from './auth.js';
import { notAuthorized, SubsonicError, SUBSONIC_CODES, toSubsonicError } from './errors.js';
import { subsonicMethods, type SubsonicOptions } from './method-table.js';
import { collectParams, SubsonicParams } from './params.js';
import { Presenter } from './presenter.js';
import { envelope, render, type Format } from './render.js';
import { isBinary, type MethodRequest } from './types.js';

const PATH = /^\/rest\/([A-Za-z0-9]+?)(?:\.view)?$/;
/** formPost: the parameters may come as an application/x-www-form-urlencoded body. */
const formPost = formBody({ json: false }) as unknown as Koa.Middleware<AppState>;

export interface SubsonicApiOptions extends Omit<SubsonicOptions, 'apiKeys'> {
  logger: Logger;
  /** Checks OpenSubsonic API keys; null while this Melon has none. */
  apiKeys: ApiKeyVerifier | null;
}

/**
 * The Subsonic API under `/rest/` (docs/API.md, Subsonic): a thin adapter over Melon's services
 * with its own method table (method-table.ts), authentication (auth.ts) and error mapping
 * (errors.ts). Every answer is a subsonic-response in XML, or JSON with `f=json`; failures are
 * HTTP 200 with `status="failed"`. Paths outside `/rest/` pass through to the native API.
 */
export function subsonicApi(services: Services, options: SubsonicApiOptions): Koa.Middleware<AppState> {
  const methods = new Map(
    subsonicMethods(services, { ...options, apiKeys: options.apiKeys !== null }).map((method) => [
      method.name,
      method,
    ]),
  );
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/rest/') && ctx.path !== '/rest') {
      await next();
      return;
    }
    // Checked before anything is read, and answered like the native guard's refusals (403).
    if (methods.get(PATH.exec(ctx.path)?.[1] ?? '')?.writes && refererIsForeign(ctx))
      throw new AppError(
        'cross_origin_refused',
        'State-changing requests from web pages of other origins are refused',
      );
    if (ctx.method === 'POST') await formPost(ctx, () => Promise.resolve());
    const params = new SubsonicParams(collectParams(ctx.query, ctx.request.body));
    const format: Format = /^jsonp?$/i.test(params.string('f') ?? '') ? 'json' : 'xml';
    const given = params.string('c');
    const client = given === undefined || given === '' ? null : given.slice(0, 128);
    ctx.state.subsonic = { code: null, client };
    const send = (status: 'ok' | 'failed', payload: Record<string, unknown>) => {
      const failure = (payload.error as { code?: number } | undefined)?.code;
      ctx.state.subsonic = { code: failure ?? null, client };
      const { text, type } = render(format, envelope(status, services.version, payload));
      ctx.status = 200;
      ctx.type = type;
      ctx.body = text;
    };
    try {
      const name = PATH.exec(ctx.path)?.[1];
      const method = name === undefined ? undefined : methods.get(name);
      if (!method || (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'POST'))
        throw new SubsonicError(
          SUBSONIC_CODES.notFound,
          `Melon has no Subsonic method at ${ctx.method} ${ctx.path}`,
        );
      const caller =
        method.access === 'public'
          ? null
          : await authenticateSubsonic(
              params,
              services.auth,
              options.apiKeys,
              ctx.ip,
              ctx.get('Authorization') || null,
              client,
            );
      if (caller && method.access !== 'public' && !(method.access as readonly string[]).includes(caller.role))
        throw notAuthorized(`The ${caller.role} role may not call ${method.name}`);
      const request: MethodRequest = {
        params,
        caller,
        client,
        clientAddress: ctx.ip,
        origin: `${ctx.protocol}://${ctx.host}`,
        present: new Presenter(services, caller ?? anonymous),
        format,
        ifNoneMatch: ctx.get('If-None-Match') || null,
        http: {
          params: {},
          path: {},
          principal: caller,
          clientAddress: ctx.ip,
          files: {},
          ifNoneMatch: ctx.get('If-None-Match') || null,
          method: ctx.method,
          header: (header) => ctx.get(header) || null,
        },
      };
      // Answers look the caller's (or the household's) play counts up as they are made.
      if (caller) await services.stats.listenersSettled();
      const reply = await method.handler(request);
      if (isBinary(reply)) {
        ctx.status = reply.status ?? 200;
        for (const [header, value] of Object.entries(reply.headers ?? {})) ctx.set(header, value);
        if (reply.type) ctx.type = reply.type;
        // Koa pipes a stream and destroys it when the response ends or the client goes away, which
        // stops an encoder feeding it.
        ctx.body = reply.body;
        if (reply.length !== undefined && reply.length !== null) ctx.length = reply.length;
        return;
      }
      send('ok', reply);
    } catch (error) {
      if (error instanceof AppError && error.code === 'range_not_satisfiable') {
        // A byte range is HTTP's business: players expect 416 with the file's size, not an XML error.
        for (const [header, value] of Object.entries(error.headers)) ctx.set(header, value);
        ctx.status = 416;
        ctx.body = '';
        return;
      }
      const known = toSubsonicError(error);
      if (known) {
        for (const [header, value] of Object.entries(known.headers)) ctx.set(header, value);
        send('failed', { error: { code: known.code, message: known.message } });
        return;
      }
      // A fault of the server: its details go to the log under the request id, never to the client.
      options.logger.error('unhandled error', {
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      send('failed', {
        error: {
          code: SUBSONIC_CODES.generic,
          message: `Something went wrong on the server (${ctx.state.requestId})`,
        },
      });
    }
  };
}

/** Stands in for the caller of the one public method, which presents nothing of the library. */
const anonymous = { userId: null, username: null, role: 'Pass', expiresAt: 0, inviteId: null } as const;
