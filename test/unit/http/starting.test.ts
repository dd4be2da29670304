import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../server/errors.js';
import { startingGate, statsReadsOf, type StartState } from '../../../server/http/starting.js';
import type { AppState } from '../../../server/http/problem.js';

/** Two statistics reads of a route table, and a write beside them that is not one. */
const STATS_READS = statsReadsOf([
  { method: 'GET', path: '/api/stats/top-artists', statsRead: true },
  { method: 'GET', path: '/api/stats/heatmap', statsRead: true },
  { method: 'POST', path: '/api/stats/log-play' },
]);

/** A start the test ends by hand: loaded, failed, or cut short by a close. */
function startOf() {
  let end: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => {
    end = resolve;
  });
  const state = { ready: false, settled };
  return {
    state: state as StartState,
    load: () => ((state.ready = true), end()),
    // To the gate a failed load and a close are alike: the start ends without the plays.
    fail: () => end(),
    close: () => end(),
  };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/**
 * The gate in front of a handler that answers 200 "passed"; a refusal answers its code.
 * `arrival()` resolves when the next request reaches the gate.
 */
async function gated(state: StartState, waitMs: number) {
  let arrived: () => void = () => undefined;
  const app = new Koa<AppState>();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      ctx.status = 503;
      ctx.body = error.code;
    }
  });
  app.use((_ctx, next) => {
    arrived();
    return next();
  });
  app.use(startingGate(state, '1.0.0', STATS_READS, waitMs));
  app.use((ctx) => {
    ctx.body = 'passed';
  });
  const handle = app.callback();
  const server = createServer((req, res) => void handle(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrival: () =>
      new Promise<void>((resolve) => {
        arrived = resolve;
      }),
  };
}

const timed = async (request: Promise<Response>) => {
  const started = performance.now();
  const response = await request;
  return { status: response.status, body: await response.text(), ms: performance.now() - started, response };
};

/** A request that waits in the gate for the load, which `end` ends once it waits; its answer. */
async function endedWhileWaiting(state: StartState, end: () => void) {
  const { url, arrival } = await gated(state, 60_000);
  const arrived = arrival();
  const answer = timed(fetch(`${url}/api/stats/top-tracks`));
  await arrived;
  end();
  return { url, answer: await answer };
}

describe('the start gate', () => {
  it('refuses at once, once the load has failed, and releases the requests that waited for it', async () => {
    const start = startOf();
    const { url, answer } = await endedWhileWaiting(start.state, start.fail);
    expect(answer).toMatchObject({ status: 503, body: 'starting' });
    const after = await timed(fetch(`${url}/api/stats/top-tracks`));
    expect(after).toMatchObject({ status: 503, body: 'starting' });
    // Not the minute it would wait during a load.
    expect(answer.ms).toBeLessThan(30_000);
    expect(after.ms).toBeLessThan(30_000);
  });

  it('lets a waiting request through when the load ends, and refuses it when a close ends the start', async () => {
    const loaded = startOf();
    expect((await endedWhileWaiting(loaded.state, loaded.load)).answer).toMatchObject({
      status: 200,
      body: 'passed',
    });
    const closed = startOf();
    expect((await endedWhileWaiting(closed.state, closed.close)).answer).toMatchObject({
      status: 503,
      body: 'starting',
    });
  });

  it('lets the statistics reads through once the statistics are ready, and holds every other request', async () => {
    let statsLoaded: () => void = () => undefined;
    const state = {
      ready: false,
      statsReady: false,
      settled: new Promise<void>(() => undefined),
      statsSettled: new Promise<void>((resolve) => {
        statsLoaded = resolve;
      }),
    };
    const { url, arrival } = await gated(state, 60_000);
    const arrived = arrival();
    const waiting = timed(fetch(`${url}/api/stats/top-artists`));
    await arrived;
    state.statsReady = true;
    statsLoaded();
    expect(await waiting).toMatchObject({ status: 200, body: 'passed' });
    expect(await timed(fetch(`${url}/api/stats/heatmap/`))).toMatchObject({ status: 200, body: 'passed' });
    // Not a write, a history read or another API: they wait for the whole start.
    for (const [path, method] of [
      ['/api/stats/log-play', 'POST'],
      ['/api/stats/year-in-review', 'GET'],
      ['/api/tracks', 'GET'],
    ] as const) {
      const { url: other } = await gated(state, 50);
      expect(await timed(fetch(`${other}${path}`, { method })), path).toMatchObject({
        status: 503,
        body: 'starting',
      });
    }
  });

  it('answers at once what the routers serve under another case or a trailing slash, and preflights', async () => {
    const { url } = await gated(startOf().state, 60_000);
    for (const path of [
      '/admin/',
      '/ADMIN',
      '/auth/login/',
      '/rest/ping.view',
      '/listenbrainz/1/validate-token/',
    ])
      expect(await timed(fetch(`${url}${path}`)), path).toMatchObject({ status: 200, body: 'passed' });
    expect(await timed(fetch(`${url}/api/health/`))).toMatchObject({
      status: 200,
      body: expect.stringContaining('starting'),
    });
    const preflight = await timed(fetch(`${url}/listenbrainz/1/submit-listens`, { method: 'OPTIONS' }));
    expect(preflight).toMatchObject({ status: 200, body: 'passed' });
  });

  it('refuses a ListenBrainz request in a form a browser extension can read', async () => {
    const start = startOf();
    const { url } = await gated(start.state, 10);
    const refused = await timed(fetch(`${url}/listenbrainz/1/submit-listens`, { method: 'POST' }));
    expect(refused.status).toBe(503);
    expect(refused.response.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.response.headers.get('retry-after')).toBe('5');
  });
});
