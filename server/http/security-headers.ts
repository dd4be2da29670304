import type Koa from 'koa';
import type { AppState } from './problem.js';

/**
 * The policy of every response but the settings page: nothing it says may load or run anything, and
 * opened in a tab it is a sandboxed, opaque origin, so even a document that slipped through could
 * not reach the page's token in sessionStorage. The settings page replaces it with its own
 * (admin-page.ts); the raw refusals of the HTTP parser send it too (client-error.ts).
 */
export const API_CSP = "default-src 'none'; sandbox";

/**
 * Headers every response carries, problem documents included (set before the route runs, so the
 * error middleware keeps them). The settings page replaces the policy with its own (admin-page.ts).
 * - `X-Content-Type-Options: nosniff`: a browser never reads JSON or an uploaded image as HTML/script.
 * - `Content-Security-Policy: default-src 'none'; sandbox` (API_CSP).
 * - `Cache-Control: no-store` on `/auth/*` and the stream token: tokens and invite codes are not kept
 *   in any cache.
 */
const STREAM_TOKEN_PATH = '/api/users/stream-token';

export function securityHeaders(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', API_CSP);
    if (ctx.path.startsWith('/auth/') || ctx.path === STREAM_TOKEN_PATH) ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
