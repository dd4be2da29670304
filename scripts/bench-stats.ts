/**
 * The statistics part of the bench: on a fresh copy of the data folder, a start from the raw log,
 * a cold start, the timed requests (bench-stats-reads.ts), then the server's memory and the
 * folder's size (bench-footprint.ts). Called by scripts/bench.ts once per run.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchData } from './bench-data.js';
import { diskBytesPerPlay, indexBytesPerPlay, rawStart } from './bench-footprint.js';
import { NAIVE_MAX_PLAYS } from './bench-naive.js';
import { round, type StatsRun } from './bench-report.js';
import { mixTimings } from './bench-mixes.js';
import { timeStatsReads } from './bench-stats-reads.js';
import { closeRequests } from './bench-timing.js';
import { startServerProcess, type Measures } from './server-process.js';
import { signInAndFirstStatsMs, untilStarted } from './bench-data.js';

/**
 * The statistics part on a fresh copy of the data folder (so every run starts from the same plays and
 * saved index, the log-plays of an earlier run left out) and fresh server processes.
 */
export async function statsRun(data: BenchData, naiveRewriteMs: number): Promise<StatsRun> {
  const { plays } = data;
  const dataDir = await mkdtemp(join(tmpdir(), 'melon-bench-run-'));
  try {
    // Kept as they were, as a restart finds them: the saved counting checks library.json's time.
    await cp(data.dataDir, dataDir, { recursive: true, preserveTimestamps: true });
    console.error('starting from the raw log (no saved index) ...');
    const rawStartMs = await rawStart(dataDir);

    // The server in its own process: the client's work and garbage do not land in its timings or
    // its memory. Cold start is measured inside it (open the store, load the index, listen).
    const server = await startServerProcess(dataDir);
    const { url, startMs: listeningMs } = server;
    // The saved index loads in the background once the server listens: the start is over for a
    // listener when their first statistics read answers (a sign-in first, as an app does).
    const coldStartMs = listeningMs + (await signInAndFirstStatsMs(url, data.users[0]!));
    await untilStarted(url);

    const timings = await timeStatsReads(url, data);
    const { logPlay: logPlayT, health, healthBlock, slowestRead, slowest, yearInReview } = timings;
    const { topFull, topMonth, listeningFull, listeningMonth, artistsFull, genresFull, deviceFull } =
      timings.reads;
    const { recent, activity, topFiveYears, topButFirstDay, recentAlbums, devices, heatmap } = timings.reads;
    const mixes = await mixTimings(url, data);
    // The log-plays above are not in plays.index yet: save them while serving, as a stop would.
    await server.ask('save');
    const { maxStallMs, maxGcMs, usedBytes, longestStallAfter } = await server.ask<Measures>('measures');
    const rssMb = server.rssMb();
    closeRequests();
    await server.stop();
    const diskPerPlay = await diskBytesPerPlay(dataDir, plays);
    const indexPerPlay = await indexBytesPerPlay({ ...data, dataDir }, usedBytes);

    const rows: StatsRun['rows'] = [
      ['first start (index built from the log)', data.indexBuildMs],
      ['start from the raw log (no plays.index)', rawStartMs],
      ['listening (saved index loading behind)', listeningMs],
      ['cold start (until a sign-in and a first top-tracks answer)', coldStartMs],
      ['log-play (durable)', logPlayT],
      ['top-tracks, full range', topFull],
      ['top-tracks, one month', topMonth],
      ['top-tracks, full range, device', deviceFull],
      ['top-artists, full range', artistsFull],
      ['top-genres, full range', genresFull],
      ['listening-time, full range', listeningFull],
      ['listening-time, one month', listeningMonth],
      ['recent-tracks', recent],
      ['activity, one month by month', activity],
      ['top-tracks, last 5 years', topFiveYears],
      ['top-tracks, all but the first day', topButFirstDay],
      ['recent-albums', recentAlbums],
      ['devices (all time)', devices],
      ['heatmap, full range', heatmap],
      ['health, after each read above (the floor)', health],
      ['health, 200 in a row', healthBlock],
      [`slowest read's p99 over the floor's (${slowestRead})`, slowest.p99 - health.p99],
      ['year in review, one listener', yearInReview.one],
      ['year in review, household (5 listeners)', yearInReview.household],
      ['getPlaylist of a mix (Subsonic), the six mixes', mixes.all],
      [`getPlaylist of the slowest mix (${mixes.slowest.id})`, mixes.slowest.timing],
      [`naive lowdb rewrite (one write)${plays > NAIVE_MAX_PLAYS ? ', scaled from 1M' : ''}`, naiveRewriteMs],
    ];
    const measures: StatsRun['measures'] = [
      ['server RSS after the run (MB)', rssMb],
      ['index bytes per play', indexPerPlay],
      ['disk bytes per play (log + index)', diskPerPlay],
      ['longest event-loop stall (ms)', maxStallMs],
      ['  longest garbage collection in it (ms)', maxGcMs],
    ];
    const figures = {
      plays,
      logPlayP50Ms: logPlayT.p50,
      logPlayP99Ms: logPlayT.p99,
      topFullP50Ms: topFull.p50,
      topFullP99Ms: topFull.p99,
      topMonthP99Ms: topMonth.p99,
      listeningFullP99Ms: listeningFull.p99,
      recentP99Ms: recent.p99,
      yearInReviewP99Ms: yearInReview.one.p99,
      yearInReviewHouseholdP99Ms: yearInReview.household.p99,
      mixP99Ms: mixes.all.p99,
      listeningMs,
      coldStartMs,
      rssMb,
      naiveRewriteMs,
      speedupVsNaive: naiveRewriteMs / logPlayT.p50,
      indexBytesPerPlay: indexPerPlay,
      diskBytesPerPlay: diskPerPlay,
      rawStartMs,
      maxStallMs,
      maxGcMs,
      healthP99Ms: health.p99,
      healthBlockP99Ms: healthBlock.p99,
      statsOverHealthP99Ms: slowest.p99 - health.p99,
      topFiveYearsP99Ms: topFiveYears.p99,
      devicesP99Ms: devices.p99,
      heatmapP99Ms: heatmap.p99,
    };
    return {
      rows,
      measures,
      stallAfter: longestStallAfter,
      figures: Object.fromEntries(Object.entries(figures).map(([key, n]) => [key, round(n)])),
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
