import type Koa from 'koa';
import type { AppState } from './problem.js';

/**
 * Headers every response carries, problem documents included (set before the route runs, so the
 * error middleware keeps them). The settings page adds its own stricter set (admin-page.ts).
 * - `X-Content-Type-Options: nosniff`: a browser never reads JSON or an uploaded image as HTML/script.
 * - `Cache-Control: no-store` on `/auth/*`: tokens and invite codes are not kept in any cache.
 */
export function securityHeaders(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.path.startsWith('/auth/')) ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
