import { randomBytes } from 'node:crypto';
import { request } from 'node:http';

/** The header that marks the server's own warm-up request, so the request log leaves it out. */
export const WARM_UP_HEADER = 'x-melon-warm-up';

/**
 * A secret per process for WARM_UP_HEADER: only the server itself knows it, so no client can hide
 * its own requests from the log by sending the header.
 */
export function warmUpSecret(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Requests to the server itself once it listens, before it says so. V8 compiles a function the
 * first time it runs, and Node loads some modules at their first use: the first request runs the
 * middleware in front of every route (host check, logging, problem mapping, headers, the start
 * gate, which answers health itself while the plays load), and the first body read loads the body
 * parser's character decoders (iconv-lite's tables). Either held the event loop longer than any
 * later request, in the turn of the client that came first (a player's first sign-in). Paid here,
 * at start, no client's request waits behind them: `/api/health`, then a sign-in with an empty
 * JSON body, which is refused (400) before any account or guessing limit is looked at. A failure
 * changes nothing: it is only a warm-up. Each carries `secret` in WARM_UP_HEADER: no client's
 * request, and the log read before the start banner should show only clients.
 */
export async function warmUp(baseUrl: string, secret?: string): Promise<void> {
  await ask(`${baseUrl}/api/health`, 'GET', secret);
  await ask(`${baseUrl}/auth/login`, 'POST', secret, '{}');
}

function ask(url: string, method: 'GET' | 'POST', secret?: string, json?: string): Promise<void> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = secret ? { [WARM_UP_HEADER]: secret } : {};
    if (json !== undefined) headers['content-type'] = 'application/json';
    const sent = request(url, { method, headers }, (response) => {
      response.on('error', () => resolve());
      response.on('end', () => resolve());
      response.resume();
    });
    sent.on('error', () => resolve());
    sent.setTimeout(2_000, () => sent.destroy());
    sent.end(json);
  });
}
