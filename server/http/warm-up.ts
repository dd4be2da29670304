import { randomBytes } from 'node:crypto';
import { get } from 'node:http';

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
 * One request to the server's own `/api/health` once it listens, before it says so. V8 compiles a
 * function the first time it runs: the first request runs the middleware in front of every route
 * (host check, logging, problem mapping, headers, the start gate, which answers health itself while
 * the plays load) for the first time and holds the event loop longer than any later request. Paid here, at start, no client's request waits behind it. Its failure changes
 * nothing: it is only a warm-up. It carries `secret` in WARM_UP_HEADER: it is no client's request,
 * and the log read before the start banner should show only clients.
 */
export function warmUp(baseUrl: string, secret?: string): Promise<void> {
  return new Promise((resolve) => {
    const headers = secret ? { [WARM_UP_HEADER]: secret } : {};
    const request = get(`${baseUrl}/api/health`, { headers }, (response) => {
      response.on('error', () => resolve());
      response.on('end', () => resolve());
      response.resume();
    });
    request.on('error', () => resolve());
    request.setTimeout(2_000, () => request.destroy());
  });
}
