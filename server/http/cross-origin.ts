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
 * - a request that changes state (`changesState`) whose `Referer` names another http(s) origin.
 *   Over plain http to a LAN name (`music.lan`), Chromium sends neither `Origin` nor
 *   `Sec-Fetch-Site` with an `<img>` or `<audio>`, only the foreign page's origin as `Referer`; the
 *   Subsonic API's state-changing methods check the same (subsonic/router.ts), since players put
 *   their credentials in the URL. Household apps send no `Referer`.
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

/** GETs that change state: a sign-in counts towards the guessing limits, an invite is made or spent. */
const STATE_CHANGING_GETS = new Set(['/auth/login', '/auth/invite', '/auth/code-authenticate']);

/** Whether a native request may change state: anything but GET, HEAD and OPTIONS, and a few GETs. */
export const changesState = (ctx: Pick<Koa.Context, 'method' | 'path'>): boolean =>
  !['GET', 'HEAD', 'OPTIONS'].includes(ctx.method) || STATE_CHANGING_GETS.has(ctx.path);

type RequestView = Pick<Koa.Context, 'get' | 'protocol' | 'host' | 'method' | 'path'>;

export function isCrossOrigin(ctx: RequestView): boolean {
  const origin = ctx.get('Origin');
  if (origin !== '') {
    const own = originOf(`${ctx.protocol}://${ctx.host}`);
    return own === null || originOf(origin) !== own;
  }
  if (changesState(ctx) && refererIsForeign(ctx)) return true;
  const site = ctx.get('Sec-Fetch-Site').toLowerCase();
  if (site !== 'cross-site' && site !== 'same-site') return false;
  const navigation =
    ctx.get('Sec-Fetch-Mode').toLowerCase() === 'navigate' && (ctx.method === 'GET' || ctx.method === 'HEAD');
  return !(navigation && NAVIGABLE.has(ctx.path));
}

/**
 * Whether the `Referer` names an http(s) origin other than the server's own. No `Referer`, or one of
 * another scheme (an app's `android-app://`), is no evidence either way.
 */
export function refererIsForeign(ctx: Pick<Koa.Context, 'get' | 'protocol' | 'host'>): boolean {
  const referer = ctx.get('Referer');
  if (referer === '') return false;
  const from = originOf(referer);
  return from !== null && from !== originOf(`${ctx.protocol}://${ctx.host}`);
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
