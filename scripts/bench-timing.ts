/** Timing for the benches: percentiles of samples, and one request to the server under test. */
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';

export interface Timing {
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** p50 and p99 of samples in ms. */
export function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** Times `runs` calls of `fn` after `warmup` untimed ones; `after` runs after each timed call, untimed. */
export async function time(
  runs: number,
  warmup: number,
  fn: (i: number) => Promise<void>,
  after?: () => Promise<void>,
): Promise<Timing> {
  for (let i = 0; i < warmup; i += 1) await fn(i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn(warmup + i);
    samples.push(performance.now() - start);
    await after?.();
  }
  return timing(samples);
}

/**
 * One HTTP request over a kept-alive connection. node:http rather than fetch: fetch's own work per
 * request (signals, streams) showed up as several ms in the p99s, and it is the client's, not the
 * server's. The answer is kept as the bytes received and decoded when `body` is first read, after
 * a caller has stopped its clock: decoding a large answer (getArtists) into a string as it arrived, and
 * the garbage that string made in this process, is the client's work too.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
export function request(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /**
     * Ask for gzip, as players do (Accept-Encoding), and unpack a gzipped answer before resolving:
     * a client must, so its inflating is inside the caller's clock, where its decoding is not.
     */
    gzip?: boolean;
  } = {},
): Promise<{ status: number; body: string; wireBytes: number; encoding: string | undefined }> {
  const headers = options.gzip ? { ...options.headers, 'accept-encoding': 'gzip' } : options.headers;
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        let text: string | undefined;
        const encoding = res.headers['content-encoding'];
        const unpacked = encoding === 'gzip' ? gunzipSync(Buffer.concat(chunks)) : undefined;
        resolve({
          status: res.statusCode ?? 0,
          wireBytes: chunks.reduce((sum, chunk) => sum + chunk.length, 0),
          encoding,
          get body() {
            text ??= (unpacked ?? Buffer.concat(chunks)).toString('utf8');
            return text;
          },
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Closes the kept-alive connection, so the server under test can stop. */
export function closeRequests(): void {
  agent.destroy();
}
