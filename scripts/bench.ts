/**
 * Play-statistics bench (issue: ~1M play logs must stay fast). Builds a data folder with N plays
 * (scripts/bench-data.ts, in a child process so its garbage does not count against the server),
 * starts the real server on it and measures over real HTTP. Beside it, the cost of the naive
 * design: one whole-file rewrite of a lowdb JSON document holding the same N plays. Then the
 * playback bench (scripts/bench-playback.ts): streams, transcodes and search at 100,000 tracks.
 *
 *   npm run bench -- [--plays N] [--runs N] [--no-playback]
 *   npm run bench -- --playback          (the playback bench alone)
 *   npm run bench -- --compare sqlite [--plays N]   (the same reads in-process, beside SQLite)
 *   npm run bench -- --tracks N [--plays N] [--runs N]   (a collector's library: bench-catalogue.ts)
 *
 * `--runs N` runs the statistics part N times, each on a fresh copy of the data folder (built once)
 * with fresh server processes; the naive rewrite is timed once. `--no-playback` leaves out the
 * playback bench, which takes a while and measures none of the statistics figures.
 *
 * Prints a table, then as its last line one JSON object with the figures (the playback bench's
 * main ones included unless --no-playback). With --runs N above 1, each run prints its table and its
 * JSON line ({"run": i, ...}) as it ends, and the last line is {"runs": N, ...} with the worst of
 * each figure over the runs (the highest; the lowest speedupVsNaive).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { argValue, buildBenchDataInChild, runTsxScript } from './bench-data.js';
import { catalogueBench } from './bench-catalogue.js';
import { NAIVE_MAX_PLAYS, naiveRewrite } from './bench-naive.js';
import { playbackBench } from './bench-playback.js';
import { playbackSummary, printPlayback, printStats, roundAll, worstOf } from './bench-report.js';
import { statsRun } from './bench-stats.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const plays = Number(argValue(args, '--plays') ?? 1_000_000);
  const runs = Number(argValue(args, '--runs') ?? 1);
  if (!Number.isInteger(runs) || runs < 1) {
    console.error('--runs takes a whole number of runs, 1 or more');
    process.exit(2);
  }
  const tracks = argValue(args, '--tracks');
  if (tracks !== undefined) {
    if (!/^\d+$/.test(tracks) || Number(tracks) < 100) {
      console.error('--tracks takes a whole number of tracks, 100 or more');
      process.exit(2);
    }
    await catalogueBench(Number(tracks), plays, runs);
    return;
  }
  if (argValue(args, '--compare') === 'sqlite') {
    // In a child, so only this run loads better-sqlite3 (a dev dependency: never at run time).
    const script = new URL('./bench-sqlite.ts', import.meta.url).pathname;
    const result = spawnSync(process.execPath, ['--import', 'tsx', script, '--plays', String(plays)], {
      stdio: 'inherit',
    });
    process.exitCode = result.status ?? 1;
    return;
  }
  if (args.includes('--naive')) {
    console.log(JSON.stringify({ naiveRewriteMs: await naiveRewrite(plays) }));
    return;
  }
  if (args.includes('--playback')) {
    const playback = await playbackBench();
    printPlayback(playback);
    console.log(JSON.stringify(roundAll(playback)));
    return;
  }
  const self = new URL(import.meta.url).pathname;
  const dataDir = await mkdtemp(join(tmpdir(), 'melon-bench-'));
  try {
    // Built once: at 1M plays building it takes longer than a run; each run works on a copy.
    console.error(`building a data folder with ${plays} plays in ${dataDir} ...`);
    const genStart = performance.now();
    const data = buildBenchDataInChild(dataDir, plays);
    console.error(`built in ${((performance.now() - genStart) / 1000).toFixed(1)} s`);

    // Above 1M plays the naive design needs more memory than this machine has (~3 GB of heap a
    // million): it is timed at 1M and scaled, its cost being linear in the plays. Once: it is not
    // the server's figure, and at 1M it takes longer than a run.
    const naivePlays = Math.min(plays, NAIVE_MAX_PLAYS);
    console.error(`timing one lowdb rewrite of ${naivePlays} of the plays (the naive design) ...`);
    const naive = runTsxScript<{ naiveRewriteMs: number }>(
      self,
      ['--naive', '--plays', String(naivePlays)],
      ['--max-old-space-size=8192'],
    );
    const naiveRewriteMs = (naive.naiveRewriteMs * plays) / naivePlays;

    const results: Record<string, number>[] = [];
    for (let i = 1; i <= runs; i += 1) {
      if (runs > 1) console.error(`run ${i} of ${runs} ...`);
      const run = await statsRun(data, naiveRewriteMs);
      printStats(plays, run);
      // Each run's line as it ends; a single run's is the last line, below.
      if (runs > 1) console.log(JSON.stringify({ run: i, ...run.figures }));
      results.push(run.figures);
    }

    const playback = args.includes('--no-playback') ? undefined : await playbackBench();
    if (playback) printPlayback(playback);
    const summary = runs > 1 ? { runs, ...worstOf(results) } : results[0]!;
    console.log(JSON.stringify({ ...summary, ...(playback ? playbackSummary(playback) : {}) }));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
