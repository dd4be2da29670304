/**
 * Load test: a household burst against the real server on 127.0.0.1 — C concurrent
 * clients (default 50) mixing log-play with statistics reads for D seconds (default 30) — over a
 * data folder of N plays (default 1,000,000; scripts/bench-data.ts). Prints throughput, p50/p99
 * latency, errors and non-2xx answers (both must be 0), and the server's resident memory before and
 * after the burst, flagging growth beyond 10 %.
 *
 *   npm run load -- [--duration S] [--plays N] [--connections C] [--warmup S]
 *   LOAD_DURATION=5 LOAD_PLAYS=100000 npm run load        (a quick run)
 *
 * The server runs in its own process (scripts/server-process.ts), so the load generator's CPU and
 * memory do not count against it. Exit code 1 when any request failed or was not answered 2xx.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { argValue, buildBenchDataInChild, login, monthRange } from './bench-data.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

function setting(args: string[], flag: string, env: string, fallback: number): number {
  const raw = argValue(args, flag) ?? process.env[env];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag} / ${env} must be a positive number`);
  return value;
}

interface Burst {
  url: string;
  tokens: string[];
  trackIds: string[];
  monthRange: string;
  connections: number;
  duration: number;
}

/** One autocannon run: each client cycles through 2 log-plays and 6 statistics reads. */
function burst(options: Burst): Promise<autocannon.Result> {
  let client = 0;
  let n = 0;
  const withToken = (request: autocannon.Request, context: object): autocannon.Request => {
    const ctx = context as { token?: string };
    ctx.token ??= options.tokens[client++ % options.tokens.length]!;
    return { ...request, headers: { ...request.headers, authorization: `Bearer ${ctx.token}` } };
  };
  const logPlay: autocannon.Request = {
    method: 'POST',
    path: '/api/stats/log-play',
    headers: { 'content-type': 'application/json' },
    setupRequest: (request, context) =>
      withToken(
        {
          ...request,
          body: JSON.stringify({ id: options.trackIds[n++ % options.trackIds.length], device: 'Load test' }),
        },
        context,
      ),
  };
  const read = (path: string): autocannon.Request => ({ method: 'GET', path, setupRequest: withToken });
  return autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    timeout: 30,
    requests: [
      logPlay,
      read('/api/stats/top-tracks?count=50'),
      read('/api/stats/recent-tracks?count=20'),
      read(`/api/stats/listening-time?${options.monthRange}`),
      logPlay,
      read('/api/stats/top-artists?count=50'),
      read(`/api/stats/top-tracks?count=50&${options.monthRange}`),
      read(`/api/stats/activity?step=week&${options.monthRange}`),
    ],
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);

  const duration = setting(args, '--duration', 'LOAD_DURATION', 30);
  const plays = setting(args, '--plays', 'LOAD_PLAYS', 1_000_000);
  const connections = setting(args, '--connections', 'LOAD_CONNECTIONS', 50);
  const warmup = setting(args, '--warmup', 'LOAD_WARMUP', 5);
  const dataDir = await mkdtemp(join(tmpdir(), 'melon-load-'));
  let server: ServerProcess | undefined;
  try {
    console.error(`building a data folder with ${plays} plays in ${dataDir} ...`);
    const data = buildBenchDataInChild(dataDir, plays);

    server = await startServerProcess(dataDir);
    const { url } = server;
    const rssIdle = server.rssMb();
    const tokens = await Promise.all(data.users.map((u) => login(url, u.username, u.password)));
    const options = { url, tokens, trackIds: data.trackIds, monthRange: monthRange(data), connections };

    console.error(`warming up for ${warmup} s ...`);
    const warm = await burst({ ...options, duration: warmup });
    const rssBefore = server.rssMb();
    console.error(`household burst: ${connections} clients for ${duration} s ...`);
    const result = await burst({ ...options, duration });
    const rssAfter = server.rssMb();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssSettled = server.rssMb();

    const growth = (rssAfter - rssBefore) / rssBefore;
    const failed = result.errors + result.timeouts + result.non2xx + warm.errors + warm.non2xx;
    const rows: Array<[string, string]> = [
      ['store', `${plays.toLocaleString('en')} plays, ${data.users.length} users, 20,000 tracks`],
      ['clients, duration', `${connections}, ${result.duration} s (after a ${warmup} s warm-up)`],
      ['mix', '2 log-play : 6 reads (top-tracks x2, top-artists, recent, listening-time, activity)'],
      ['requests', `${result.requests.total.toLocaleString('en')} (${result['2xx']} 2xx)`],
      [
        'throughput',
        `${result.requests.average.toFixed(0)} req/s, ${(result.throughput.average / 1024).toFixed(0)} KiB/s`,
      ],
      ['latency p50 / p99 / max', `${result.latency.p50} / ${result.latency.p99} / ${result.latency.max} ms`],
      ['errors / timeouts / non-2xx', `${result.errors} / ${result.timeouts} / ${result.non2xx}`],
      [
        'server RSS idle, before, after',
        `${rssIdle.toFixed(0)} / ${rssBefore.toFixed(0)} / ${rssAfter.toFixed(0)} MB`,
      ],
      ['server RSS 2 s later', `${rssSettled.toFixed(0)} MB`],
      [
        'RSS growth during the burst',
        `${(growth * 100).toFixed(1)} %${growth > 0.1 ? '  << FLAG: more than 10 %' : ''}`,
      ],
    ];
    console.log(`\nMelon load test\n`);
    for (const [name, value] of rows) console.log(`${name.padEnd(32)}${value}`);
    console.log(
      '\n' +
        JSON.stringify({
          plays,
          connections,
          durationS: result.duration,
          requests: result.requests.total,
          reqPerSec: Math.round(result.requests.average),
          latencyP50Ms: result.latency.p50,
          latencyP99Ms: result.latency.p99,
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          rssBeforeMb: Math.round(rssBefore),
          rssAfterMb: Math.round(rssAfter),
          rssGrowthPct: Math.round(growth * 1000) / 10,
          rssGrowthFlag: growth > 0.1,
        }),
    );
    if (failed > 0) process.exitCode = 1;
  } finally {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
