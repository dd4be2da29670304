/** The statistics and playback benches' printed tables and the figures of their last JSON line. */
import { USER_COUNT } from './bench-data.js';
import type { PlaybackFigures } from './bench-playback.js';
import type { Timing } from './bench-timing.js';

/** One run of the statistics part: its table's rows and its JSON line's figures. */
export interface StatsRun {
  rows: Array<[string, Timing | number]>;
  /** The server's memory, disk and stall, printed to 0.1. */
  measures: Array<[string, number]>;
  /** The requests received last before the longest stall (Measures.longestStallAfter). */
  stallAfter: string[];
  figures: Record<string, number>;
}

export const round = (n: number) => Math.round(n * 100) / 100;

export function printStats(plays: number, run: StatsRun): void {
  console.log(`\nMelon stats bench: ${plays} plays, ${USER_COUNT} users, 10 years\n`);
  console.log(`${'measure'.padEnd(40)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}`);
  for (const [name, value] of run.rows) {
    const cells =
      typeof value === 'number' ? ['', value.toFixed(2)] : [value.p50.toFixed(2), value.p99.toFixed(2)];
    console.log(`${name.padEnd(40)}${cells[0]!.padStart(10)}${cells[1]!.padStart(10)}`);
  }
  for (const [name, value] of run.measures) {
    console.log(`${name.padEnd(40)}${''.padStart(10)}${value.toFixed(1).padStart(10)}`);
  }
  console.log(`the longest stall came after: ${run.stallAfter.join(', ') || '(no request)'}`);
  console.log('');
}

/** The worst of each figure over the runs: the highest, but the lowest of a speed-up. */
export function worstOf(runs: readonly Record<string, number>[]): Record<string, number> {
  const worst: Record<string, number> = {};
  for (const key of Object.keys(runs[0]!)) {
    const values = runs.map((figures) => figures[key]!);
    worst[key] = key === 'speedupVsNaive' ? Math.min(...values) : Math.max(...values);
  }
  return worst;
}

export function printPlayback(figures: PlaybackFigures): void {
  const f = (n: number) => n.toFixed(2).padStart(10);
  console.log(`Melon playback bench: 100,000 tracks, 60 s files\n`);
  console.log(
    `${'stream first byte (original, Range 0-)'.padEnd(40)}${f(figures.streamFirstByteP50Ms)}${f(figures.streamFirstByteP99Ms)}`,
  );
  console.log(
    `${'transcode first byte (mp3 128k)'.padEnd(40)}${f(figures.transcodeFirstByteP50Ms)}${f(figures.transcodeFirstByteP99Ms)}`,
  );
  console.log(`${'search, 100,000 tracks'.padEnd(40)}${f(figures.searchP50Ms)}${f(figures.searchP99Ms)}`);
  console.log(
    `${'20 concurrent whole-file streams (MB/s)'.padEnd(40)}${''.padStart(10)}${f(figures.concurrentStreamsMBps)}`,
  );
  console.log(
    `${'  server RSS growth meanwhile (MB)'.padEnd(40)}${''.padStart(10)}${f(figures.concurrentStreamsRssGrowthMb)}\n`,
  );
}

/** The playback figures the last line carries beside the statistics'. */
export function playbackSummary(figures: PlaybackFigures): Record<string, number> {
  return {
    streamFirstByteP50Ms: round(figures.streamFirstByteP50Ms),
    transcodeFirstByteP50Ms: round(figures.transcodeFirstByteP50Ms),
    concurrentStreamsMBps: round(figures.concurrentStreamsMBps),
    concurrentStreamsRssGrowthMb: round(figures.concurrentStreamsRssGrowthMb),
    searchP99Ms: round(figures.searchP99Ms),
  };
}

export function roundAll(figures: PlaybackFigures): Record<string, number> {
  return Object.fromEntries(Object.entries(figures).map(([key, n]) => [key, Math.round(n * 100) / 100]));
}
