/**
 * The reads Melon makes from the household's listening, beyond the statistics lists: the year in
 * review and the mixes (docs/API.md, Year in review, Mixes).
 */
import { MIX_IDS } from '../server/contract/mixes.js';
import { request, time, timing, type Timing } from './bench-timing.js';

/**
 * GET /api/stats/year-in-review for a year in the middle of the data: one listener's year, and the
 * whole household's (every member, as the Admin sees it).
 */
export async function yearInReviewTimings(
  get: (path: string) => Promise<void>,
  getAsAdmin: (path: string) => Promise<void>,
  data: { firstAt: number; lastAt: number },
): Promise<{ one: Timing; household: Timing }> {
  const year = new Date((data.firstAt + data.lastAt) / 2).getFullYear();
  const one = await time(100, 5, () => get(`/api/stats/year-in-review?year=${year}`));
  const household = await time(30, 3, () =>
    getAsAdmin(`/api/stats/year-in-review?year=${year}&household=true`),
  );
  return { one, household };
}

/**
 * Subsonic's getPlaylist of each of a listener's mixes, as an app asks for them (with an app
 * password, so no password hashing lands in the timings): all the samples, and each mix's. Each mix
 * is made at the request from the statistics index.
 */
export async function mixTimings(
  url: string,
  token: string,
): Promise<{ all: Timing; slowest: { id: string; timing: Timing } }> {
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
