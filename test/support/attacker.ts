import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * Clients for the security suite (test/security): requests that fetch() will not send as written
 * (raw paths with `..`, duplicate headers, a chosen source address on the loopback network) and
 * bytes written straight to the socket.
 */
export interface HostileRequest {
  method?: string;
  /** Sent exactly as given: no dot-segment normalisation, unlike fetch. */
  path: string;
  /** A list of pairs to send a header more than once. */
  headers?: Record<string, string> | Array<[string, string]>;
  body?: string | Buffer;
  /** Source address, e.g. `127.0.0.7`: Linux routes all of 127.0.0.0/8 to the loopback interface. */
  from?: string;
}

export interface HostileResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => unknown;
}

export function send(baseUrl: string, req: HostileRequest): Promise<HostileResponse> {
  const { hostname, port, host } = new URL(baseUrl);
  // Raw header lists are sent as they are; HTTP/1.1 needs a Host, which Node adds only to objects.
  const headers = Array.isArray(req.headers)
    ? [
        ...(req.headers.some(([name]) => name.toLowerCase() === 'host') ? [] : [['Host', host]]),
        ...req.headers,
      ].flat()
    : { ...req.headers };
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: hostname,
        port: Number(port),
        method: req.method ?? 'GET',
        path: req.path,
        headers,
        localAddress: req.from,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: () => JSON.parse(text) as unknown,
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/** Writes `data` to a fresh connection and returns everything the server sent until it closed. */
export function sendBytes(baseUrl: string, data: string, waitMs = 3000): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    let received = '';
    const socket = connect(Number(port), hostname, () => socket.write(data));
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

/** sha256 of every file under `root`, by relative path: equal snapshots mean nothing was written. */
export async function snapshot(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  const out: Record<string, string> = {};
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    out[relative(root, path)] = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
  }
  return out;
}
