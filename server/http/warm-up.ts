import { get } from 'node:http';

/**
 * One request to the server's own `/api/health` once it listens, before it says so. V8 compiles a
 * function the first time it runs: the first request runs the whole middleware chain (host check,
 * logging, problem mapping, headers) for the first time and holds the event loop longer than any
 * later request. Paid here, at start, no client's request waits behind it. Its failure changes
 * nothing: it is only a warm-up.
 */
export function warmUp(baseUrl: string): Promise<void> {
  return new Promise((resolve) => {
    const request = get(`${baseUrl}/api/health`, (response) => {
      response.on('error', () => resolve());
      response.on('end', () => resolve());
      response.resume();
    });
    request.on('error', () => resolve());
    request.setTimeout(2_000, () => request.destroy());
  });
}
