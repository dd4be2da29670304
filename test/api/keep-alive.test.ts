import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HTTP_LIMITS } from '../../server/create-server.js';
import { useTestServer } from '../support/server.js';

/**
 * A household client keeps its connection open between requests and reuses it later. If the server
 * closed an idle connection just as a client sent a request on it, the client would see the request
 * fail with ECONNRESET. These clients hold one connection and never look at whether the server
 * closed it, as a client does whose event loop is held up (a phone app in the background, a
 * process on a busy machine).
 */

/** Idle time of the clients that ignore the server's `Keep-Alive: timeout`: OkHttp and browsers. */
const LONGEST_CLIENT_IDLE_MS = 300_000;

interface Answer {
  status: number;
  headers: Map<string, string>;
}

/** One kept-alive connection that sends a request and reads the answer, one at a time. */
function connection(url: string): Promise<{ get(path: string): Promise<Answer>; socket: Socket }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let buffered = Buffer.alloc(0);
    let waiting: { resolve(answer: Answer): void; reject(error: Error): void } | null = null;
    let failure: Error | null = null;
    const fail = (error: Error) => {
      failure ??= error;
      waiting?.reject(error);
      waiting = null;
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the server closed the connection')));
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0 || !waiting) return;
      const [statusLine, ...lines] = buffered.subarray(0, end).toString('latin1').split('\r\n');
      const headers = new Map(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      const length = Number(headers.get('content-length') ?? 0);
      if (buffered.length < end + 4 + length) return;
      buffered = buffered.subarray(end + 4 + length);
      waiting.resolve({ status: Number(statusLine!.split(' ')[1]), headers });
      waiting = null;
    });
    socket.once('connect', () =>
      resolve({
        socket,
        get: (path) =>
          new Promise<Answer>((resolveAnswer, rejectAnswer) => {
            if (failure) return rejectAnswer(failure);
            waiting = { resolve: resolveAnswer, reject: rejectAnswer };
            socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
          }),
      }),
    );
    socket.once('error', reject);
  });
}

function advertisedTimeoutMs(answer: Answer): number {
  const match = /timeout=(\d+)/.exec(answer.headers.get('keep-alive') ?? '');
  expect(match, 'Keep-Alive: timeout=').not.toBeNull();
  return Number(match![1]) * 1_000;
}

describe('an idle kept-alive connection', () => {
  const t = useTestServer();

  it('outlasts the idle time of the clients that ignore the advertised timeout', async () => {
    expect(HTTP_LIMITS.keepAliveTimeoutMs).toBeGreaterThan(LONGEST_CLIENT_IDLE_MS);
    const client = await connection(t.url);
    onTestFinished(() => void client.socket.destroy());
    const first = await client.get('/api/health');
    expect(first.status).toBe(200);
    expect(first.headers.get('connection')).toBe('keep-alive');
    expect(advertisedTimeoutMs(first)).toBe(HTTP_LIMITS.keepAliveTimeoutMs);
  });

  it('still answers a client that comes back after several seconds on the same connection', async () => {
    const client = await connection(t.url);
    onTestFinished(() => void client.socket.destroy());
    expect((await client.get('/api/health')).status).toBe(200);
    // Longer than a worker on a busy machine or a phone app in the background is held up.
    await sleep(7_000);
    expect((await client.get('/api/health')).status).toBe(200);
  });
});

describe('at the server’s keep-alive boundary', () => {
  // A short timeout of its own, so that the test can wait it out.
  const keepAliveTimeoutMs = 2_000;
  const t = useTestServer({ httpLimits: { keepAliveTimeoutMs } });

  it('a client sending when its advertised time is up, and a little late, is answered, not reset', async () => {
    const client = await connection(t.url);
    onTestFinished(() => void client.socket.destroy());
    const first = await client.get('/api/health');
    expect(advertisedTimeoutMs(first)).toBe(keepAliveTimeoutMs);
    // A client that trusts the advertised value sends its next request at the last moment, and
    // its timer fires a little late.
    await sleep(keepAliveTimeoutMs + 250);
    expect((await client.get('/api/health')).status).toBe(200);
  });

  it('a connection left idle past the timeout is closed, so idle sockets do not pile up', async () => {
    const client = await connection(t.url);
    const closed = new Promise<number>((resolve) => {
      const start = Date.now();
      client.socket.on('close', () => resolve(Date.now() - start));
    });
    expect((await client.get('/api/health')).status).toBe(200);
    expect(await closed).toBeGreaterThanOrEqual(keepAliveTimeoutMs);
  });
});
