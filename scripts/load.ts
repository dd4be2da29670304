/**
 * Load test (issue 7): a household burst against the real server on 127.0.0.1 — C concurrent
 * clients (default 50) mixing log-play with statistics reads for D seconds (default 30) — over a
 * data folder of N plays (default 1,000,000; scripts/bench-data.ts). Prints throughput, p50/p99
 * latency, errors and non-2xx answers (both must be 0), and the server's resident memory before and
 * after the burst, flagging growth beyond 10 %.
 *
 *   npm run load -- [--duration S] [--plays N] [--connections C] [--warmup S]
 *   LOAD_DURATION=5 LOAD_PLAYS=100000 npm run load        (a quick run)
 *
 * The server runs in its own process (this script with --serve), so the load generator's CPU and
 * memory do not count against it. It is the server `npm start` runs (createServer + listen, the
 * real logger), except that it does not scan a music folder at start: the synthetic 20,000-track
 * library the plays refer to lives only in library.json, and a scan of a real folder would replace
 * it. Exit code 1 when any request failed or was not answered 2xx.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { createServer } from '../server/index.js';
import { createLogger } from '../server/logger.js';
import { argValue, benchConfig, login, type BenchData } from './bench-data.js';

const SELF = fileURLToPath(import.meta.url);
const DAY_MS = 24 * 60 * 60 * 1000;

function setting(args: string[], flag: string, env: string, fallback: number): number {
  const raw = argValue(args, flag) ?? process.env[env];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag} / ${env} must be a positive number`);
  return value;
}

/** `--serve DIR`: the server process. Sends its URL to the parent over IPC. */
async function serve(dataDir: string): Promise<void> {
  const server = await createServer({
    config: benchConfig(dataDir),
    logger: createLogger(),
    scanOnStart: false,
    exit: () => undefined,
  });
  const url = await server.listen();
  process.send?.({ url });
  process.on('SIGTERM', () => {
    void server.close(2_000).then(() => process.exit(0));
  });
}

/** Resident memory of a process in MB (Linux /proc; `ps` elsewhere). */
function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    if (Number.isFinite(kb)) return kb / 1024;
  } catch {
    // not Linux
  }
  const ps = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  return Number(ps.stdout.trim()) / 1024;
}

function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--serve', dataDir], {
    // Request lines go to stdout like `npm start`'s; nobody reads them here.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve({ child, url: message.url }));
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
  });
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
  const served = argValue(args, '--serve');
  if (served) return serve(served);

  const duration = setting(args, '--duration', 'LOAD_DURATION', 30);
  const plays = setting(args, '--plays', 'LOAD_PLAYS', 1_000_000);
  const connections = setting(args, '--connections', 'LOAD_CONNECTIONS', 50);
  const warmup = setting(args, '--warmup', 'LOAD_WARMUP', 5);
  const dataDir = await mkdtemp(join(tmpdir(), 'melon-load-'));
  let server: ChildProcess | undefined;
  try {
    console.error(`building a data folder with ${plays} plays in ${dataDir} ...`);
    const built = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        new URL('./bench-data.ts', import.meta.url).pathname,
        '--out',
        dataDir,
        '--plays',
        String(plays),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (built.status !== 0) throw new Error(`bench-data failed with status ${built.status}`);
    const data = JSON.parse(built.stdout.trim().split('\n').pop()!) as BenchData;

    const started = await startServer(dataDir);
    server = started.child;
    const pid = server.pid!;
    const rssIdle = rssMb(pid);
    const tokens = await Promise.all(data.users.map((u) => login(started.url, u.username, u.password)));
    const middle = Math.floor((data.firstAt + data.lastAt) / 2);
    const monthRange = `gtDateTime=${new Date(middle).toISOString()}&ltDateTime=${new Date(middle + 30 * DAY_MS).toISOString()}`;
    const options = { url: started.url, tokens, trackIds: data.trackIds, monthRange, connections };

    console.error(`warming up for ${warmup} s ...`);
    const warm = await burst({ ...options, duration: warmup });
    const rssBefore = rssMb(pid);
    console.error(`household burst: ${connections} clients for ${duration} s ...`);
    const result = await burst({ ...options, duration });
    const rssAfter = rssMb(pid);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssSettled = rssMb(pid);

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
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
