import { rm } from 'node:fs/promises';
import Koa from 'koa';
import Router, { type RouterContext } from '@koa/router';
import type { Logger } from '../logger.js';
import type { AuthService } from '../services/auth-service.js';
import { badRequest, messageOf } from '../errors.js';
import { authorize } from './authenticate.js';
import { formBody, multipartBody, UPLOAD_LIMIT_BYTES } from './body.js';
import { crossOriginGuard } from './cross-origin.js';
import { hostGuard } from './host-check.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { mergeParams } from './params.js';
import { problemMiddleware, type AppState } from './problem.js';
import { requestLog } from './request-log.js';
import { securityHeaders } from './security-headers.js';
import { StreamBody, type Request, type RouteDef, type UploadedFile } from './endpoint.js';

type Ctx = RouterContext<AppState>;

/** A native POST's parameters: a JSON or form body. */
const nativeForm = formBody({ json: true });

/**
 * Builds the Koa application: request log, problem mapping, security headers, the host guard, the
 * cross-origin guard, then the route table.
 */
export function buildApp(
  routes: RouteDef[],
  auth: AuthService,
  logger: Logger,
  options: {
    allowedHosts?: readonly string[];
    /** Second APIs with their own routing (the Subsonic API under /rest/), after the guards. */
    adapters?: readonly Koa.Middleware<AppState>[];
    /**
     * Second APIs that take tokens in headers only, never cookies (the ListenBrainz adapter): after
     * the host guard and security headers, before the cross-origin guard, since a scrobbler in a
     * browser extension calls from another origin and no visitor's session can be used that way.
     */
    headerTokenAdapters?: readonly Koa.Middleware[];
    /** The secret of the server's own warm-up request, which the request log leaves out. */
    warmUpSecret?: string;
    /** While the play index loads: what is answered, waits or is refused (starting.ts). */
    starting?: Koa.Middleware<AppState>;
  } = {},
): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: false });
  const router = new Router<AppState>();
  for (const route of routes) {
    const method = route.method === 'GET' ? 'get' : 'post';
    const parse =
      route.body === 'multipart' ? multipartBody(route.uploadLimitBytes ?? UPLOAD_LIMIT_BYTES) : nativeForm;
    // Authorise before reading a body: an anonymous caller cannot make the server buffer 20 MiB.
    router[method](
      route.path,
      async (ctx, next) => {
        // Only a stream token is good in the address (docs/API.md, Stream tokens): authorize checks.
        const queryToken = route.queryToken ? ctx.query.access_token : undefined;
        ctx.state.principal = authorize(
          auth,
          route.access,
          ctx.get('Authorization') || undefined,
          typeof queryToken === 'string' && queryToken ? queryToken : undefined,
        );
        await next();
      },
      ...(route.method === 'POST' ? [parse] : []),
      async (ctx: Ctx) => handle(ctx, route),
    );
  }
  app.use(requestLog(logger, options.warmUpSecret));
  app.use(problemMiddleware(logger));
  // Before the host guard, so its refusals carry the headers too.
  app.use(securityHeaders());
  app.use(hostGuard(options.allowedHosts));
  if (options.starting) app.use(options.starting);
  for (const adapter of options.headerTokenAdapters ?? []) app.use(adapter);
  app.use(crossOriginGuard());
  for (const adapter of options.adapters ?? []) app.use(adapter);
  app.use(router.routes());
  app.use(router.allowedMethods());
  // What still reaches Koa's error event is a broken connection (a client that went away, a body
  // the HTTP parser refused): a warning in our log, not a stack trace on stderr.
  app.on('error', (error: unknown, ctx?: Koa.Context) => {
    logger.warn('connection error', {
      method: ctx?.method,
      path: ctx?.path,
      error: messageOf(error),
    });
  });
  return app;
}

/**
 * Runs a reply's after-send step once the response is out, or once the client has gone (the request
 * was accepted either way, and a step that never ran, e.g. an update's install, would leave its
 * service busy). A client that went away while the handler still worked (a long download) has
 * already closed the response, and 'close' will not come again: the step runs now then.
 */
function runAfterResponse(ctx: Ctx, step: () => Promise<void> | void): void {
  const run = () => void Promise.resolve().then(step);
  if (ctx.res.destroyed || ctx.res.closed) {
    run();
    return;
  }
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    ctx.res.off('finish', once);
    ctx.res.off('close', once);
    run();
  };
  ctx.res.once('finish', once);
  ctx.res.once('close', once);
}

async function handle(ctx: Ctx, route: RouteDef): Promise<void> {
  const body: unknown = ctx.request.body;
  if (Array.isArray(body)) throw badRequest('invalid_body', 'The JSON body must be an object');
  if (nestsDeeperThan(body))
    throw badRequest('invalid_body', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
  const files = collectFiles(ctx);
  const request: Request = {
    params: mergeParams(ctx.query, body),
    path: { ...ctx.params },
    principal: (ctx.state as { principal?: Request['principal'] }).principal ?? null,
    clientAddress: ctx.ip,
    files,
    ifNoneMatch: ctx.get('If-None-Match') || null,
    method: ctx.method,
    header: (name) => ctx.get(name) || null,
  };
  try {
    const reply = await route.handler(request);
    ctx.status = reply.status ?? 200;
    for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
    if (reply.type) ctx.type = reply.type;
    if (reply.body instanceof StreamBody) {
      // Koa pipes the stream and destroys it when the response finishes or the client goes away.
      ctx.body = reply.body.stream;
      if (reply.body.length !== null) ctx.length = reply.body.length;
    } else {
      ctx.body = reply.body ?? null;
    }
    if (reply.afterSend) runAfterResponse(ctx, reply.afterSend);
  } finally {
    await Promise.all(Object.values(files).map((file) => rm(file.tempPath, { force: true })));
  }
}

function collectFiles(ctx: Ctx): Record<string, UploadedFile> {
  const files: Record<string, UploadedFile> = {};
  for (const [name, value] of Object.entries(ctx.request.files ?? {})) {
    const file = Array.isArray(value) ? value[0] : value;
    if (file) files[name] = { tempPath: file.filepath, size: file.size };
  }
  return files;
}
