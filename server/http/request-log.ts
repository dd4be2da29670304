import type Koa from 'koa';
import type { Logger } from '../logger.js';
import type { AppState } from './problem.js';
import { WARM_UP_HEADER } from './warm-up.js';

/**
 * Names of parameters whose values are secrets, as normalised by secretKey(): passwords, invite
 * codes, tokens, and Subsonic's `p` (password), `t` + `s` (token and salt) and `apiKey`.
 */
const SECRET_NAMES = new Set([
  'password',
  'currentpassword',
  'newpassword',
  'code',
  'token',
  'access_token',
  'p',
  't',
  's',
  'apikey',
]);

/**
 * Whether a raw query key names a secret. Frameworks read `password[]`, `password.x`, `user[password]`,
 * `password%20`, `password+` or `password%00` as the password too, so the key is judged the way a
 * parser might read it: decoded, case-folded, split into its words (brackets, dots, spaces and
 * control characters separate them); any secret word makes the whole value secret.
 */
export function isSecretKey(rawKey: string): boolean {
  let key = rawKey.replace(/\+/g, ' ');
  try {
    key = decodeURIComponent(key);
  } catch {
    // A malformed escape: judge what can be read of it.
    key = key.replace(/%[0-9a-f]{2}/gi, ' ');
  }
  return key
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .some((word) => SECRET_NAMES.has(word));
}

export function redactedUrl(path: string, querystring: string): string {
  if (!querystring) return path;
  const parts = querystring.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    return eq >= 0 && isSecretKey(rawKey) ? `${rawKey}=***` : pair;
  });
  return `${path}?${parts.join('&')}`;
}

/**
 * One line per request: method, path (secrets redacted), status, duration, request id; `/rest/`
 * lines add the Subsonic error code (null on success: failures are HTTP 200) and the client's name.
 * The server's own warm-up request (it carries `warmUpSecret`) is no client's and is not logged.
 */
export function requestLog(logger: Logger, warmUpSecret?: string): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    if (warmUpSecret && ctx.get(WARM_UP_HEADER) === warmUpSecret) {
      await next();
      return;
    }
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info('request', {
        method: ctx.method,
        url: redactedUrl(ctx.path, ctx.querystring),
        status: ctx.status,
        ...(ctx.state.subsonic
          ? { subsonicError: ctx.state.subsonic.code, client: ctx.state.subsonic.client }
          : {}),
        ms: Math.round((performance.now() - started) * 10) / 10,
        id: ctx.state.requestId,
      });
    }
  };
}
