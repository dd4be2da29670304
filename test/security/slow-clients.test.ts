import { connect, type Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HTTP_LIMITS } from '../../server/create-server.js';
import { startTestServer, useTestServer } from '../support/server.js';

/**
 * A request whose body (or headers) trickles in must not be held for Node's default 300 s, nor any
 * number of connections accepted, or a few slow clients could keep every socket busy. The limits are the server's (HTTP_LIMITS); this
 * server gets short ones so the test can wait them out.
 */
const t = useTestServer({
  httpLimits: { requestTimeoutMs: 1_500, headersTimeoutMs: 800 },
});

interface Trickle {
  /** Everything the server sent. */
  received: string;
  /** When the server closed the connection, in ms from the start; null if it had not after 6 s. */
  closedAfterMs: number | null;
}

/** Sends `head` at once, then one byte of `drip` every 100 ms, until the server closes (or 6 s). */
function trickle(head: string, drip: string): Promise<Trickle> {
  const { hostname, port } = new URL(t.url);
  const start = Date.now();
  return new Promise((resolve) => {
    let received = '';
    let at = 0;
    const socket = connect(Number(port), hostname, () => socket.write(head));
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write(drip[at++ % drip.length]!);
    }, 100);
    const giveUp = setTimeout(() => finish(null), 6_000);
    const finish = (closedAfterMs: number | null) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ received, closedAfterMs });
    };
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(Date.now() - start));
  });
}

describe('slow clients', () => {
  it('has limits far below Node’s 300 s by default', () => {
    expect(HTTP_LIMITS).toEqual({
      requestTimeoutMs: 120_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 310_000,
      maxConnections: 256,
    });
  });

  it('a body that trickles in is cut off at the request timeout with 408', async () => {
    const result = await trickle(
      'POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"username":"',
      'a',
    );
    expect(result.closedAfterMs).not.toBeNull();
    expect(result.closedAfterMs!).toBeLessThan(4_000);
    expect(result.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.received).toContain('"code":"request_timeout"');
  });

  it('headers that trickle in are cut off at the headers timeout with 408', async () => {
    const result = await trickle('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 'z');
    expect(result.closedAfterMs).not.toBeNull();
    expect(result.closedAfterMs!).toBeLessThan(3_000);
    expect(result.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('connections beyond the cap are closed as they arrive; the others are served', async () => {
    // A server of its own, with the usual timeouts: the held connections must not time out meanwhile.
    const capped = await startTestServer({ httpLimits: { maxConnections: 4 } });
    onTestFinished(() => capped.stop());
    const { hostname, port } = new URL(capped.url);
    const open = (): Promise<Socket> =>
      new Promise((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => resolve(socket));
        socket.on('error', reject);
      });
    const held = [await open(), await open(), await open(), await open()];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = await open();
    const closed = await new Promise<boolean>((resolve) => {
      extra.on('close', () => resolve(true));
      extra.on('error', () => undefined);
      extra.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      setTimeout(() => resolve(false), 1_000);
    });
    expect(closed).toBe(true);
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await capped.call('/api/health')).status).toBe(200);
  });
});
