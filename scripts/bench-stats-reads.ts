/**
 * The statistics bench's timed requests over real HTTP against a running server: log-play, every
 * statistics read the household page makes, the HTTP floor they are held to, and the year in
 * review. Called by scripts/bench-stats.ts.
 */
import { performance } from 'node:perf_hooks';
import {
  ADMIN_PASSWORD,
  ADMIN_USER,
  type BenchData,
  DAY_MS,
  login,
  monthRange,
  YEAR_MS,
} from './bench-data.js';
import { request, time, timing, type Timing } from './bench-timing.js';

/**
 * GET /api/stats/year-in-review for a year in the middle of the data: one listener's year, and the
 * whole household's (every member, as the Admin sees it).
 */
async function yearInReviewTimings(
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

export type StatsRead =
  | 'topFull'
  | 'topMonth'
  | 'listeningFull'
  | 'listeningMonth'
  | 'artistsFull'
  | 'genresFull'
  | 'deviceFull'
  | 'recent'
  | 'activity'
  | 'topFiveYears'
  | 'topButFirstDay'
  | 'recentAlbums'
  | 'devices'
  | 'heatmap';

export interface ReadTimings {
  logPlay: Timing;
  /** Each statistics read, by name. */
  reads: Record<StatsRead, Timing>;
  /** /api/health timed after each timed read: the floor the reads are held to. */
  health: Timing;
  /** /api/health, 200 in a row. */
  healthBlock: Timing;
  /** The read with the highest p99. */
  slowestRead: string;
  slowest: Timing;
  yearInReview: { one: Timing; household: Timing };
}

/** Times every request of the statistics part against the server at `url`. */
export async function timeStatsReads(url: string, data: BenchData): Promise<ReadTimings> {
  const user = data.users[0]!;
  const token = await login(url, user.username, user.password);
  const auth = { authorization: `Bearer ${token}` };
  const get = async (path: string) => {
    const response = await request(url + path, { headers: auth });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.body}`);
  };
  const logPlay = async (i: number) => {
    const body = JSON.stringify({ id: data.trackIds[i % data.trackIds.length], device: 'Bench' });
    const response = await request(`${url}/api/stats/log-play`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
    });
    if (response.status !== 200) throw new Error(`log-play: ${response.status} ${response.body}`);
  };
  const month = monthRange(data);
  const iso = (at: number) => new Date(at).toISOString();
  const fiveYears = `gtDateTime=${iso(data.lastAt - 5 * YEAR_MS)}`;
  const allButFirstDay = `gtDateTime=${iso(data.firstAt + DAY_MS)}`;

  // The HTTP floor the statistics reads are held to: /api/health timed after each of their timed
  // requests, so over the same seconds of the same machine. Timed as a block of 200 at the end
  // (still shown), its p99 went from 0.5 to 4.0 ms between runs of the same code: whether a
  // hiccup of this virtual machine (a few ms, whatever the request) fell in its 50 ms was luck.
  const floorSamples: number[] = [];
  const floor = async () => {
    const start = performance.now();
    await get('/api/health');
    floorSamples.push(performance.now() - start);
  };
  const timed = (runs: number, warmup: number, fn: (i: number) => Promise<void>) =>
    time(runs, warmup, fn, floor);
  const logPlayT = await time(500, 20, logPlay);
  const topFull = await timed(200, 10, () => get('/api/stats/top-tracks?count=50'));
  const topMonth = await timed(200, 10, () => get(`/api/stats/top-tracks?count=50&${month}`));
  const listeningFull = await timed(200, 10, () => get('/api/stats/listening-time'));
  const listeningMonth = await timed(200, 10, () => get(`/api/stats/listening-time?${month}`));
  const artistsFull = await timed(200, 10, () => get('/api/stats/top-artists?count=50'));
  const genresFull = await timed(200, 10, () => get('/api/stats/top-genres?count=50'));
  const deviceFull = await timed(100, 5, () => get(`/api/stats/top-tracks?count=50&device=phone%200`));
  const recent = await timed(200, 10, () => get('/api/stats/recent-tracks?count=50'));
  const activity = await timed(100, 5, () => get('/api/stats/activity?step=month&' + month));
  const topFiveYears = await timed(200, 10, () => get(`/api/stats/top-tracks?count=50&${fiveYears}`));
  const topButFirstDay = await timed(200, 10, () => get(`/api/stats/top-tracks?count=50&${allButFirstDay}`));
  const recentAlbums = await timed(200, 10, () => get('/api/stats/recent-albums?count=50'));
  // The household page's other reads: a user's devices and the weekly heatmap over all time.
  const devices = await timed(100, 5, () => get('/api/stats/devices'));
  const heatmap = await timed(100, 5, () => get('/api/stats/heatmap'));
  const healthBlock = await time(200, 10, () => get('/api/health'));
  const health = timing(floorSamples);
  // How far the slowest statistics read's p99 is above the floor's (the target: at most 3 ms).
  const reads: Record<StatsRead, Timing> = {
    topFull,
    topMonth,
    listeningFull,
    listeningMonth,
    artistsFull,
    genresFull,
    deviceFull,
    recent,
    activity,
    topFiveYears,
    topButFirstDay,
    recentAlbums,
    devices,
    heatmap,
  };
  const [slowestRead, slowest] = Object.entries(reads).reduce((a, b) => (b[1].p99 > a[1].p99 ? b : a));
  const adminToken = await login(url, ADMIN_USER, ADMIN_PASSWORD);
  const getAsAdmin = async (path: string) => {
    const response = await request(url + path, { headers: { authorization: `Bearer ${adminToken}` } });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.body}`);
  };
  const yearInReview = await yearInReviewTimings(get, getAsAdmin, data);
  return { logPlay: logPlayT, reads, health, healthBlock, slowestRead, slowest, yearInReview };
}
