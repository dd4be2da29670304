/**
 * Subsonic's getPlaylist of each of a listener's mixes (docs/API.md, Mixes), for the statistics
 * bench (scripts/bench-stats.ts).
 */
import { performance } from 'node:perf_hooks';
import { MIX_IDS } from '../server/contract/mixes.js';
import { login, type BenchData } from './bench-data.js';
import { request, time, timing, type Timing } from './bench-timing.js';

/**
 * Subsonic's getPlaylist of each of a listener's mixes, as an app asks for them (with an app
 * password, so no password hashing lands in the timings): all the samples, and each mix's. Each mix
 * is made at the request from the statistics index.
 */
export async function mixTimings(
  url: string,
  data: BenchData,
): Promise<{ all: Timing; slowest: { id: string; timing: Timing } }> {
  const user = data.users[0]!;
  const token = await login(url, user.username, user.password);
  const made = await request(`${url}/api/users/api-keys/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench app' }),
  });
  if (made.status !== 201) throw new Error(`api-keys/create: ${made.status} ${made.body}`);
  const { key } = JSON.parse(made.body) as { key: string };
  const samples = new Map<string, number[]>();
  const all: number[] = [];
  for (const id of MIX_IDS) {
    const path = `/rest/getPlaylist.view?v=1.16.1&c=bench&f=json&apiKey=${encodeURIComponent(key)}&id=${id}`;
    const own: number[] = [];
    await time(50, 5, async () => {
      const start = performance.now();
      const response = await request(url + path);
      own.push(performance.now() - start);
      if (response.status !== 200 || !response.body.includes('"status":"ok"'))
        throw new Error(`getPlaylist ${id}: ${response.status} ${response.body.slice(0, 200)}`);
    });
    // The warm-up calls are not samples.
    const timed = own.slice(5);
    samples.set(id, timed);
    all.push(...timed);
  }
  const slowest = [...samples.entries()]
    .map(([id, list]) => ({ id, timing: timing(list) }))
    .reduce((a, b) => (b.timing.p99 > a.timing.p99 ? b : a));
  return { all: timing(all), slowest };
}
