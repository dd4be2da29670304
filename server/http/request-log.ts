import type Koa from 'koa';
import type { Logger } from '../logger.js';
import type { AppState } from './problem.js';

/** Query parameters whose values are secrets: never written to the log. */
const SECRET_PARAMS = new Set([
  'password',
  'currentpassword',
  'newpassword',
  'code',
  'token',
  'access_token',
]);

export function redactedUrl(path: string, querystring: string): string {
  if (!querystring) return path;
  const parts = querystring.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    let key = rawKey;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: judge the raw key.
    }
    return SECRET_PARAMS.has(key.toLowerCase()) && eq >= 0 ? `${rawKey}=***` : pair;
  });
  return `${path}?${parts.join('&')}`;
}

/** One line per request: method, path (secrets redacted), status, duration, request id. */
export function requestLog(logger: Logger): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info('request', {
        method: ctx.method,
        url: redactedUrl(ctx.path, ctx.querystring),
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        id: ctx.state.requestId,
      });
    }
  };
}
