import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { AppError, problemTitle } from '../errors.js';
import type { Logger } from '../logger.js';

export interface AppState {
  requestId: string;
  /** Set by the Subsonic adapter: its answer's error code (failures are HTTP 200) and the client's `c`. */
  subsonic?: { code: number | null; client: string | null };
}

/** The RFC 9457 document for an error (without the per-request fields). */
export function problemDocument(error: AppError): Record<string, unknown> {
  return {
    type: 'about:blank',
    title: problemTitle(error.code),
    status: error.status,
    detail: error.detail,
    code: error.code,
    ...error.extra,
  };
}

export function sendProblem(ctx: Koa.Context, error: AppError, extra: Record<string, unknown> = {}): void {
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  ctx.type = 'application/problem+json';
  ctx.body = { ...problemDocument(error), ...extra };
}

/**
 * Errors thrown by the body parser and the router (http-errors with a status) are client errors;
 * they become problems with stable codes. Their messages are not passed on as they are.
 */
function fromHttpError(error: { status?: unknown; httpCode?: unknown; code?: unknown }): AppError | null {
  // koa-body's own errors carry `status`; formidable's (multipart limits) carry `httpCode`.
  const code = typeof error.status === 'number' ? error.status : error.httpCode;
  // A body whose Content-Encoding (gzip, deflate) does not match its bytes fails in zlib, which
  // gives no status: it is the client's malformed body all the same.
  const zlib = typeof error.code === 'string' && error.code.startsWith('Z_');
  const status = typeof code === 'number' ? code : zlib ? 400 : 0;
  if (status === 413) return new AppError('payload_too_large', 'The request body is too large');
  if (status === 415)
    return new AppError('unsupported_media_type', 'The request body has an unsupported type');
  if (status === 400) return new AppError('invalid_body', 'The request body could not be parsed');
  return null;
}

/** The one place that turns every error into an RFC 9457 problem document (docs/API.md, Conventions). */
export function problemMiddleware(logger: Logger): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    ctx.state.requestId = randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    try {
      await next();
      // The router answers unknown paths and methods with empty bodies; give them problem documents.
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404)
          sendProblem(ctx, new AppError('not_found', `No endpoint at ${ctx.method} ${ctx.path}`));
        if (ctx.status === 405 || ctx.status === 501) {
          sendProblem(ctx, new AppError('method_not_allowed', `${ctx.path} does not take ${ctx.method}`));
        }
      }
    } catch (error) {
      const known = error instanceof AppError ? error : fromHttpError(error as Record<string, unknown>);
      if (known) return sendProblem(ctx, known);
      // A real fault: the details go to the log under the request id, never to the client.
      logger.error('unhandled error', {
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      sendProblem(ctx, new AppError('internal_error', 'Something went wrong on the server'), {
        requestId: ctx.state.requestId,
      });
    }
  };
}
