import { isIP } from 'node:net';
import { hostname as machineHostname } from 'node:os';
import type Koa from 'koa';
import { AppError } from '../errors.js';
import type { AppState } from './problem.js';

/**
 * DNS rebinding guard. A web page on the internet can point a name it controls at a household
 * address, and the household member's browser then sends that page's requests to Melon under the
 * attacker's name in `Host`. Melon answers only to names that cannot be rebound from outside:
 * - IP literals (how phones and speakers are usually set up) and requests without a `Host`;
 * - `localhost` and `*.localhost` (they resolve to this machine only);
 * - this machine's own host name, alone or under `.local` (mDNS, answered on the home network only);
 * - names the household adds with `MELON_ALLOWED_HOSTS` (a router's `nas.lan`, say).
 * Anything else gets 421 `unknown_host` before any other middleware or handler runs.
 */
export function hostGuard(allowedHosts: readonly string[] = []): Koa.Middleware<AppState> {
  const allowed = new Set([...ownHostNames(), ...allowedHosts.map(normalHost)]);
  return async (ctx, next) => {
    const host = ctx.get('Host');
    if (host !== '' && !isAllowedHost(host, allowed)) {
      throw new AppError(
        'unknown_host',
        'This server answers only to its IP addresses, localhost, its own host name and the names set in MELON_ALLOWED_HOSTS',
      );
    }
    await next();
  };
}

function ownHostNames(): string[] {
  const own = normalHost(machineHostname());
  const short = own.split('.')[0] ?? own;
  return [own, short, `${short}.local`];
}

/** Lower case, no trailing dot (`Melon.local.` is `melon.local`). */
const normalHost = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** Whether a `Host` header value (`name[:port]`, `[v6][:port]`) names a host Melon answers to. */
export function isAllowedHost(header: string, allowed: ReadonlySet<string>): boolean {
  let name: string;
  try {
    name = normalHost(new URL(`http://${header}`).hostname);
  } catch {
    return false;
  }
  if (name.startsWith('[') && name.endsWith(']')) return isIP(name.slice(1, -1)) === 6;
  // WHATWG URL parsing turns every IPv4 spelling (`0x7f.1`, `2130706433`) into dotted decimal.
  if (isIP(name) === 4) return true;
  return name === 'localhost' || name.endsWith('.localhost') || allowed.has(name);
}
