import type Koa from 'koa';
import { AppError } from '../errors.js';
import type { AppState } from './problem.js';

/**
 * The API has no CORS allow-list: it is for household devices (which send no `Origin`) and for the
 * settings page the server itself serves (same origin). A web page of any other origin must not be
 * able to drive it with the browser of someone at home, so requests a browser marks as coming from
 * elsewhere are refused before authorisation, body parsing or any handler runs. No response ever
 * carries `Access-Control-Allow-*` headers, so a preflight never succeeds either.
 *
 * Refused (403 `cross_origin_refused`), whatever the method — several GETs of the interface change
 * state (`/auth/invite`, `/auth/code-authenticate`, `/auth/login`):
 * - an `Origin` header that is not the server's own origin (`null` included), e.g. every
 *   cross-origin `fetch`, every preflight and every form POST from another site;
 * - without `Origin`, `Sec-Fetch-Site: cross-site` or `same-site` (an `<img>`, a script, a link
 *   followed from another site), except a top-level GET navigation to the settings page.
 *
 * The own origin is `http://` plus the `Host` header, so the server works under any name or address
 * it is reached by.
 */
export function crossOriginGuard(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    if (isCrossOrigin(ctx)) {
      throw new AppError(
        'cross_origin_refused',
        'Requests from web pages of other origins are not accepted by this server',
      );
    }
    await next();
  };
}

/** Paths a link on another site may open in a browser tab. */
const NAVIGABLE = new Set(['/admin', '/admin/']);

export function isCrossOrigin(
  ctx: Pick<Koa.Context, 'get' | 'protocol' | 'host' | 'method' | 'path'>,
): boolean {
  const origin = ctx.get('Origin');
  if (origin !== '') {
    const own = originOf(`${ctx.protocol}://${ctx.host}`);
    return own === null || originOf(origin) !== own;
  }
  const site = ctx.get('Sec-Fetch-Site').toLowerCase();
  if (site !== 'cross-site' && site !== 'same-site') return false;
  const navigation =
    ctx.get('Sec-Fetch-Mode').toLowerCase() === 'navigate' && (ctx.method === 'GET' || ctx.method === 'HEAD');
  return !(navigation && NAVIGABLE.has(ctx.path));
}

/** `scheme://host[:port]` with default ports dropped and the host lower-cased; null when malformed. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}
