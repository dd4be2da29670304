import { Agent, request } from 'node:http';

export interface RawRequest {
  method: string;
  /** Sent exactly as given (no dot-segment normalisation, unlike fetch); must be ASCII. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A bare HTTP/1.1 client for hostile requests: arbitrary methods, raw paths (`/../`, `%00`), any
 * content type and bodies that do not match it. One keep-alive agent per client.
 */
export function rawClient(baseUrl: string) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const send = (req: RawRequest, timeoutMs = 30_000) =>
    new Promise<RawResponse>((resolve, reject) => {
      const body = req.body === undefined ? undefined : Buffer.from(req.body);
      const headers: Record<string, string> = { ...req.headers };
      if (body !== undefined) headers['content-length'] = String(body.length);
      const outgoing = request(
        { host: hostname, port: Number(port), method: req.method, path: req.path, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`timeout: ${req.method} ${req.path}`)));
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  return { send, close: () => agent.destroy() };
}
