/**
 * Builds a realistic data folder for the stats bench: the first Admin, 5 users made through the real
 * server, a synthetic library (20,000 tracks, 2,000 albums, 1,500 artists) and N plays spread over
 * 10 years, written straight into the play log.
 *
 *   tsx scripts/bench-data.ts --out DIR [--plays N]
 *
 * The last line printed is a JSON description of the folder (see BenchData).
 */
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createServer, type MelonServer } from '../server/create-server.js';
import { createLogger, type Logger } from '../server/logger.js';
import type { LibraryIndex } from '../server/domain/library.js';
import { PlayLog } from '../server/store/play-log.js';
import type { PlayLogEntry } from '../server/domain/play.js';
import { fakeScanner, makeLibrary, type TrackSpec } from '../test/factories/library.js';
import { ADMIN_PASSWORD, ADMIN_USER, benchConfig } from './bench-config.js';

export { ADMIN_PASSWORD, ADMIN_USER, benchConfig };

export const USER_COUNT = 5;
export const DAY_MS = 24 * 60 * 60 * 1000;
export const YEAR_MS = 365.25 * DAY_MS;
export const SPAN_MS = 10 * YEAR_MS;

export interface BenchUser {
  id: string;
  username: string;
  password: string;
}

export interface BenchData {
  dataDir: string;
  plays: number;
  users: BenchUser[];
  /** Play times run from `firstAt` to `lastAt`. */
  firstAt: number;
  lastAt: number;
  trackIds: string[];
  /** The first start after the plays were written: the index built from the whole log, then saved. */
  indexBuildMs: number;
}

/** A small fast seeded generator (mulberry32), so every run builds the same data. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GENRES = [
  ['Rock', 'rock', 'ROCK'],
  ['Pop', 'pop'],
  ['Jazz'],
  ['Hip-Hop', 'Hip-hop', 'hip-hop'],
  ['Electronic', 'electronic'],
  ['Classical'],
  ['Folk', 'folk '],
  ['Metal'],
  ['Blues'],
  ['Soul'],
  ['Reggae'],
  ['Country'],
  ['Ambient'],
  ['Punk'],
  ['Indie', 'indie'],
  ['R&B'],
];

/** The bench library; ids look like the server's own (opaque, url-safe). */
export function benchLibrary(seed = 1): LibraryIndex {
  const rnd = random(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)]!;
  const artists = Array.from({ length: 1500 }, (_, i) => ({ id: `ar${i}`, name: `Artist ${i}` }));
  const albums = Array.from({ length: 2000 }, (_, i) => ({
    id: `al${i}`,
    name: `Album ${i}`,
    artistIds: [pick(artists).id],
  }));
  const tracks: TrackSpec[] = Array.from({ length: 20_000 }, (_, i) => {
    const album = albums[i % albums.length]!;
    const artistIds = rnd() < 0.2 ? [...album.artistIds, pick(artists).id] : [...album.artistIds];
    const genre = pick(GENRES);
    return {
      id: `tr${i}`,
      name: `Track ${i}`,
      albumId: album.id,
      artistIds: [...new Set(artistIds)],
      genres: rnd() < 0.3 ? [pick(genre), pick(pick(GENRES))] : [pick(genre)],
      durationMs: 120_000 + Math.floor(rnd() * 300_000),
    };
  });
  return makeLibrary({ artists, albums, tracks });
}

/**
 * N plays over `SPAN_MS` ending at `endAt`, in time order, for the given users: track popularity
 * roughly Zipf (log-uniform rank), 2–3 devices per user, ~3% skips.
 */
export function* benchPlays(
  library: LibraryIndex,
  userIds: string[],
  plays: number,
  endAt: number,
  seed = 2,
): Generator<PlayLogEntry> {
  const rnd = random(seed);
  const tracks = library.tracks;
  const albumName = new Map(library.albums.map((a) => [a.id, a.name]));
  const artistName = new Map(library.artists.map((a) => [a.id, a.name]));
  // Each user likes the catalogue in a different order, so their tops differ.
  const offsets = userIds.map(() => Math.floor(rnd() * tracks.length));
  const devices = userIds.map((_, u) =>
    ['Phone', 'Desktop', 'Car'].slice(0, 2 + (u % 2)).map((d) => `${d} ${u}`),
  );
  const startAt = endAt - SPAN_MS;
  const step = SPAN_MS / plays;
  const idBytes = Buffer.alloc(16);
  for (let i = 0; i < plays; i += 1) {
    const u = Math.floor(rnd() * userIds.length);
    const rank = Math.floor(Math.exp(rnd() * Math.log(tracks.length + 1))) - 1;
    const track = tracks[(rank + offsets[u]!) % tracks.length]!;
    for (let b = 0; b < 16; b += 4) idBytes.writeUInt32LE(Math.floor(rnd() * 4294967296), b);
    const userDevices = devices[u]!;
    const device = rnd() < 0.1 ? null : userDevices[Math.floor(rnd() * userDevices.length)]!;
    yield {
      id: idBytes.toString('base64url'),
      userId: userIds[u]!,
      trackId: track.id,
      albumId: track.albumId,
      artistIds: track.artistIds,
      genres: track.genres,
      durationMs: track.durationMs,
      device,
      type: rnd() < 0.03 ? 'skip' : 'play',
      at: Math.floor(startAt + i * step + rnd() * step * 0.9),
      explicitAt: false,
      trackName: track.name,
      albumName: track.albumId ? (albumName.get(track.albumId) ?? null) : null,
      artistNames: track.artistIds.map((id) => artistName.get(id) ?? ''),
    };
  }
}

/** A logger that drops request lines, so a bench run's output stays readable. */
export function quietLogger(): Logger {
  const base = createLogger((line) => process.stderr.write(line + '\n'));
  return {
    info: () => undefined,
    warn: (message, fields) => base.warn(message, fields),
    error: (message, fields) => base.error(message, fields),
  };
}

/**
 * A listening server over the music folder `music` that neither scans on start nor watches: a scan
 * bench starts and times each scan itself.
 */
export async function startScanServer(dataDir: string, music: string): Promise<MelonServer> {
  const server = await createServer({
    config: { ...benchConfig(dataDir), libraryDirs: [music] },
    logger: quietLogger(),
    scanOnStart: false,
    library: { watch: false },
    exit: () => undefined,
  });
  await server.listen();
  return server;
}

/**
 * A listening server over a new data folder `dataDir` whose library is `library` (a fake scanner:
 * no music files), once that library is in place.
 */
export async function startLibraryServer(
  dataDir: string,
  library: LibraryIndex,
): Promise<{ server: MelonServer; url: string }> {
  await mkdir(dataDir, { recursive: true });
  const server = await createServer({
    config: benchConfig(dataDir),
    logger: quietLogger(),
    scanner: fakeScanner(library),
    exit: () => undefined,
  });
  const url = await server.listen();
  // The scan starts once the plays are in, after the server listens: wait for it to start, then end.
  await server.started;
  await server.services.library.waitForIdle();
  return { server, url };
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function login(url: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return (await json<{ token: string }>(response)).token;
}

/**
 * A listener's all-time top tracks, asked again while the server answers 503 `starting` (its gate
 * holds a read at most a few seconds; on a loaded machine the load may take longer). Polled every
 * 50 ms rather than after Retry-After's whole seconds, so the time it took is what is measured.
 */
export async function firstTopTracks(url: string, token: string): Promise<void> {
  for (;;) {
    const top = await fetch(`${url}/api/stats/top-tracks?count=50`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await top.text();
    if (top.ok) return;
    if (top.status !== 503) throw new Error(`first top-tracks: ${top.status} ${body.slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * From now until a listener has signed in and their all-time top tracks answered (ms): the start is
 * over for a listener when their first statistics read answers, a sign-in first, as an app does.
 */
export async function signInAndFirstStatsMs(
  url: string,
  user: { username: string; password: string },
): Promise<number> {
  const started = performance.now();
  const token = await login(url, user.username, user.password);
  await firstTopTracks(url, token);
  return performance.now() - started;
}

/**
 * Until `/api/health` says the start is over: the statistics may answer before the library is read
 * (docs/API.md, Starting), and the reads timed after them are those of a started server.
 */
export async function untilStarted(url: string): Promise<void> {
  for (;;) {
    const health = await fetch(`${url}/api/health`);
    if ((await json<{ status: string }>(health)).status !== 'starting') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function buildBenchData(
  dataDir: string,
  plays: number,
  library: LibraryIndex = benchLibrary(),
): Promise<BenchData> {
  // Users and the library go through the real server, like a household setting it up.
  const { server, url } = await startLibraryServer(dataDir, library);
  const admin = await login(url, ADMIN_USER, ADMIN_PASSWORD);
  const users: BenchUser[] = [];
  for (let i = 0; i < USER_COUNT; i += 1) {
    const user = { username: `listener${i}`, password: `bench password ${i}!` };
    const response = await fetch(`${url}/api/users/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: JSON.stringify({ ...user, role: 'User' }),
    });
    users.push({ ...user, id: (await json<{ id: string }>(response)).id });
  }
  await server.close(100);

  // The plays go straight into the log: ten years through HTTP would take hours.
  const endAt = Date.now() - 60 * 60 * 1000;
  const log = await PlayLog.open(join(dataDir, 'plays.jsonl'), {
    logger: quietLogger(),
    onEntry: () => undefined,
  });
  let batch: PlayLogEntry[] = [];
  let firstAt = Infinity;
  let lastAt = -Infinity;
  for (const entry of benchPlays(
    library,
    users.map((u) => u.id),
    plays,
    endAt,
  )) {
    firstAt = Math.min(firstAt, entry.at);
    lastAt = Math.max(lastAt, entry.at);
    batch.push(entry);
    if (batch.length === 20_000) {
      await log.appendMany(batch);
      batch = [];
    }
  }
  await log.appendMany(batch);
  await log.close();

  // The log was written behind the server's back, so the first start reads all of it and saves the
  // index on close; later starts load that (scripts/bench.ts measures one).
  const buildStart = performance.now();
  const first = await createServer({
    config: benchConfig(dataDir),
    logger: quietLogger(),
    scanner: fakeScanner(library),
    scanOnStart: false,
    exit: () => undefined,
  });
  await first.listen();
  const indexBuildMs = performance.now() - buildStart;
  // Once the library is read and the plays counted as it says, the close saves that counting too,
  // and later starts answer statistics before they read the library.
  await first.started;
  await first.close(100);
  return {
    dataDir,
    plays,
    users,
    firstAt,
    lastAt,
    trackIds: library.tracks.slice(0, 2000).map((t) => t.id),
    indexBuildMs,
  };
}

/** Runs a script in a child Node with tsx; returns the last stdout line as JSON. */
export function runTsxScript<T>(script: string, args: string[], nodeArgs: string[] = []): T {
  const result = spawnSync(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`${script} ${args.join(' ')} failed with status ${result.status}`);
  const lines = result.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as T;
}

/** `buildBenchData` in a child process, so its garbage does not count against the caller. */
export function buildBenchDataInChild(dataDir: string, plays: number): BenchData {
  const script = new URL('./bench-data.ts', import.meta.url).pathname;
  return runTsxScript<BenchData>(script, ['--out', dataDir, '--plays', String(plays)]);
}

/** A 30-day range in the middle of the plays, as gtDateTime/ltDateTime query parameters. */
export function monthRange(data: BenchData): string {
  const middle = Math.floor((data.firstAt + data.lastAt) / 2);
  return `gtDateTime=${new Date(middle).toISOString()}&ltDateTime=${new Date(middle + 30 * DAY_MS).toISOString()}`;
}

export function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const out = argValue(args, '--out');
  if (!out) {
    console.error('usage: tsx scripts/bench-data.ts --out DIR [--plays N]');
    process.exit(2);
  }
  const plays = Number(argValue(args, '--plays') ?? 1_000_000);
  const data = await buildBenchData(out, plays);
  console.log(JSON.stringify(data));
}
