/**
 * What the statistics bench measures around the reads: a start without the saved index, the
 * index's memory per play and the data folder's bytes per play. Called by scripts/bench-stats.ts.
 */
import { copyFile, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PASSWORD, ADMIN_USER, type BenchData, login, monthRange } from './bench-data.js';
import { request } from './bench-timing.js';
import { startServerProcess, type Measures } from './server-process.js';

/**
 * A start without a saved index (the first start after an upgrade, or after plays.index was deleted):
 * the server reads and indexes the whole log. Its index is saved again before it stops.
 */
export async function rawStart(dataDir: string): Promise<number> {
  await rm(join(dataDir, 'plays.index'), { force: true });
  const server = await startServerProcess(dataDir);
  await server.ask('save');
  await server.stop();
  return server.startMs;
}

/**
 * Bytes the index of N plays holds: the server's used memory (heap and typed arrays, after a full
 * GC) minus that of a server on the same folder without plays. That server first answers one
 * request of each kind the bench makes: what serving sets up once (routes, schemas, caches of the
 * code, ~3 MB) is not the index's.
 */
export async function indexBytesPerPlay(data: BenchData, usedBytes: number): Promise<number> {
  const { dataDir, plays } = data;
  const empty = await mkdtemp(join(tmpdir(), 'melon-bench-empty-'));
  try {
    for (const name of await readdir(dataDir)) {
      if (name.startsWith('plays.') || name === 'melon.lock') continue;
      if ((await stat(join(dataDir, name))).isFile()) await copyFile(join(dataDir, name), join(empty, name));
    }
    const server = await startServerProcess(empty);
    await warmUp(server.url, data);
    const baseline = await server.ask<Measures>('measures');
    await server.stop();
    return (usedBytes - baseline.usedBytes) / plays;
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
}

/** One request of each kind the bench times, as the listener and as the Admin. */
async function warmUp(url: string, data: BenchData): Promise<void> {
  const user = data.users[0]!;
  const year = new Date((data.firstAt + data.lastAt) / 2).getFullYear();
  const asUser = { authorization: `Bearer ${await login(url, user.username, user.password)}` };
  const asAdmin = { authorization: `Bearer ${await login(url, ADMIN_USER, ADMIN_PASSWORD)}` };
  const month = monthRange(data);
  const reads: Array<[string, Record<string, string>]> = [
    ['/api/stats/top-tracks?count=50', asUser],
    [`/api/stats/top-tracks?count=50&${month}`, asUser],
    ['/api/stats/top-tracks?count=50&device=phone%200', asUser],
    ['/api/stats/top-artists?count=50', asUser],
    ['/api/stats/top-genres?count=50', asUser],
    ['/api/stats/listening-time', asUser],
    ['/api/stats/recent-tracks?count=50', asUser],
    ['/api/stats/recent-albums?count=50', asUser],
    ['/api/stats/devices', asUser],
    ['/api/stats/heatmap', asUser],
    [`/api/stats/activity?step=month&${month}`, asUser],
    ['/api/health', asUser],
    [`/api/stats/year-in-review?year=${year}`, asUser],
    [`/api/stats/year-in-review?year=${year}&household=true`, asAdmin],
  ];
  for (const [path, headers] of reads) await request(url + path, { headers });
  await request(`${url}/api/stats/log-play`, {
    method: 'POST',
    headers: { ...asUser, 'content-type': 'application/json' },
    body: JSON.stringify({ id: data.trackIds[0], device: 'Bench' }),
  });
}

/** The play log and the saved index on disk, per play. */
export async function diskBytesPerPlay(dataDir: string, plays: number): Promise<number> {
  const size = async (name: string) => (await stat(join(dataDir, name))).size;
  return ((await size('plays.jsonl')) + (await size('plays.index'))) / plays;
}
