/**
 * Playback bench: first bytes of streams and transcodes, 20 concurrent whole-file
 * streams (throughput and the server's memory), and search at 100,000 tracks. The server runs in
 * its own process (scripts/server-process.ts) over a data folder whose synthetic library points its
 * first tracks at real audio files made here with ffmpeg. Called by scripts/bench.ts.
 */
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { makeLibrary, type TrackSpec } from '../test/factories/library.js';
import { ADMIN_PASSWORD, ADMIN_USER, login, random, startLibraryServer } from './bench-data.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const run = promisify(execFile);

export const SEARCH_TRACKS = 100_000;
export const CONCURRENT_STREAMS = 20;
const AUDIO_SECONDS = 60;

export interface PlaybackFigures {
  streamFirstByteP50Ms: number;
  streamFirstByteP99Ms: number;
  transcodeFirstByteP50Ms: number;
  transcodeFirstByteP99Ms: number;
  concurrentStreamsMBps: number;
  /** The server's resident memory at its highest during the concurrent streams, less before them. */
  concurrentStreamsRssGrowthMb: number;
  searchP50Ms: number;
  searchP99Ms: number;
}

const WORDS = [
  'love',
  'night',
  'blue',
  'dance',
  'heart',
  'fire',
  'rain',
  'dream',
  'city',
  'light',
  'Beyoncé',
  'Sigur',
  'Rós',
  'Straße',
  'summer',
  'echo',
  'river',
  'golden',
  'shadow',
  'wild',
  'café',
  'moon',
];

/** The identity a scan records for a file: the server opens a track's file only if it is still this one. */
const identityOf = (path: string) => {
  const { dev, ino } = statSync(path);
  return { path, dev, ino };
};

/** 100,000 tracks with word-made names; the first 20 are real WAV files, the next one a FLAC. */
function library(wavs: string[], flac: string) {
  const rnd = random(7);
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const artists = Array.from({ length: 5_000 }, (_, i) => ({
    id: `ar${i}`,
    name: `${word()} ${word()} ${i}`,
  }));
  const albums = Array.from({ length: 10_000 }, (_, i) => ({
    id: `al${i}`,
    name: `${word()} ${word()} ${i}`,
    artistIds: [artists[i % artists.length]!.id],
  }));
  const tracks: TrackSpec[] = Array.from({ length: SEARCH_TRACKS }, (_, i) => ({
    id: `tr${i}`,
    name: `${word()} ${word()} ${word()} ${i}`,
    albumId: albums[i % albums.length]!.id,
    artistIds: [artists[i % artists.length]!.id],
    durationMs: AUDIO_SECONDS * 1000,
  }));
  const index = makeLibrary({ artists, albums, tracks });
  wavs.forEach((path, i) => Object.assign(index.tracks[i]!, { ...identityOf(path), format: 'wav' }));
  Object.assign(index.tracks[wavs.length]!, { ...identityOf(flac), format: 'flac' });
  return index;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Time to the first body byte of a GET; the connection is then dropped (the server stops sending). */
function firstByte(url: string, headers: Record<string, string>): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      if (res.statusCode !== 200 && res.statusCode !== 206) {
        res.resume();
        resolve({ ms: NaN, status: res.statusCode ?? 0 });
        return;
      }
      res.once('data', () => {
        const ms = performance.now() - started;
        req.destroy();
        resolve({ ms, status: res.statusCode ?? 0 });
      });
    });
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end();
  });
}

/** Reads a whole response, counting its bytes. */
function readAll(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(server: ServerProcess, token: string, ids: { wavs: string[]; flac: string }) {
  const auth = { authorization: `Bearer ${token}` };
  const url = server.url;

  const streamSamples: number[] = [];
  for (let i = 0; i < 220; i += 1) {
    const id = ids.wavs[i % ids.wavs.length]!;
    const { ms, status } = await firstByte(`${url}/api/tracks/${id}/stream`, { ...auth, range: 'bytes=0-' });
    if (status !== 206) throw new Error(`stream: ${status}`);
    if (i >= 20) streamSamples.push(ms);
  }

  const transcodeSamples: number[] = [];
  for (let i = 0; i < 32;) {
    const { ms, status } = await firstByte(
      `${url}/api/tracks/${ids.flac}/stream?format=mp3&maxBitRate=128`,
      auth,
    );
    if (status === 503) {
      // The previous encoders are still exiting.
      await sleep(20);
      continue;
    }
    if (status !== 200) throw new Error(`transcode: ${status}`);
    if (i >= 2) transcodeSamples.push(ms);
    i += 1;
  }

  await sleep(500);
  const rssBefore = server.rssMb();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, server.rssMb())), 20);
  const started = performance.now();
  const bytes = await Promise.all(
    Array.from({ length: CONCURRENT_STREAMS }, (_, i) =>
      readAll(`${url}/api/tracks/${ids.wavs[i % ids.wavs.length]!}/stream`, auth),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, server.rssMb());
  const total = bytes.reduce((sum, n) => sum + n, 0);

  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const queries = [
    'love',
    'beyonce',
    'strasse night',
    'ros',
    'dream city 4',
    'golden 12345',
    'zzz',
    'e',
    'cafe moon',
  ];
  const searchSamples: number[] = [];
  for (let i = 0; i < 330; i += 1) {
    const q = encodeURIComponent(queries[i % queries.length]!);
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${url}/api/search?q=${q}&count=20`, { headers: auth, agent }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`search: ${res.statusCode}`));
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end();
    });
    if (i >= 30) searchSamples.push(performance.now() - t0);
  }
  agent.destroy();

  for (const list of [streamSamples, transcodeSamples, searchSamples]) list.sort((a, b) => a - b);
  return {
    streamFirstByteP50Ms: percentile(streamSamples, 50),
    streamFirstByteP99Ms: percentile(streamSamples, 99),
    transcodeFirstByteP50Ms: percentile(transcodeSamples, 50),
    transcodeFirstByteP99Ms: percentile(transcodeSamples, 99),
    concurrentStreamsMBps: total / 1e6 / seconds,
    concurrentStreamsRssGrowthMb: rssPeak - rssBefore,
    searchP50Ms: percentile(searchSamples, 50),
    searchP99Ms: percentile(searchSamples, 99),
  };
}

export async function playbackBench(): Promise<PlaybackFigures> {
  const root = await mkdtemp(join(tmpdir(), 'melon-bench-playback-'));
  try {
    const music = join(root, 'music');
    await mkdir(music, { recursive: true });
    console.error(
      `making ${CONCURRENT_STREAMS} ${AUDIO_SECONDS} s audio files and a ${SEARCH_TRACKS}-track library ...`,
    );
    const tone = [
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=44100:duration=${AUDIO_SECONDS}`,
      '-ac',
      '2',
    ];
    const quiet = ['-hide_banner', '-loglevel', 'error', '-y'];
    const firstWav = join(music, 'stream-0.wav');
    await run('ffmpeg', [...quiet, ...tone, '-c:a', 'pcm_s16le', firstWav]);
    const flac = join(music, 'transcode.flac');
    await run('ffmpeg', [...quiet, ...tone, '-c:a', 'flac', flac]);
    const wavs = [firstWav];
    for (let i = 1; i < CONCURRENT_STREAMS; i += 1) {
      const copy = join(music, `stream-${i}.wav`);
      await copyFile(firstWav, copy);
      wavs.push(copy);
    }
    const index = library(wavs, flac);
    const dataDir = join(root, 'data');
    const { server: setup } = await startLibraryServer(dataDir, index);
    await setup.close(100);

    // The files' folder is the server's music folder (not scanned at start): it opens no file outside one.
    const server = await startServerProcess(dataDir, music);
    try {
      const token = await login(server.url, ADMIN_USER, ADMIN_PASSWORD);
      console.error(
        `measuring streams (${(await stat(firstWav)).size} bytes a file), transcodes and search ...`,
      );
      return await measure(server, token, {
        wavs: index.tracks.slice(0, wavs.length).map((track) => track.id),
        flac: index.tracks[wavs.length]!.id,
      });
    } finally {
      await server.stop();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
