/**
 * The real server in a process of its own, for `npm run bench` and `npm run load`: the HTTP client's
 * CPU, garbage and memory then do not count against the server, and its resident memory is its own.
 * It is what `npm start` runs (createServer + listen, the real logger), except that it does not scan
 * a music folder at start: the synthetic library the bench plays refer to lives only in
 * library.json, and a scan of a real folder would replace it.
 *
 * It runs built JavaScript, as `npm start` does, not the TypeScript through tsx: tsx's loader and
 * its transpiled sources held ~30 MB of resident memory the product does not have (an empty server
 * over 20,000 tracks: 170 MB under tsx), and the benches' memory targets are about the product.
 * startServerProcess first builds the server the way `npm run build` does (scripts/build-dist.ts),
 * once per process, into dist-bench/ (not dist/, which the desktop app is packed from), with this
 * file and bench-config.ts beside it: dist-bench/scripts/server-process.js imports
 * dist-bench/server/create-server.js, which finds its assets and package.json relative to itself.
 *
 *   node --expose-gc dist-bench/scripts/server-process.js DATA_DIR [MUSIC_DIR]   (started by startServerProcess)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { createServer } from '../server/create-server.js';
import { tightHeapGrowth } from '../server/heap-growth.js';
import { createLogger } from '../server/logger.js';
// Only the server and this: the built process has no tsx to run the rest of scripts/ and test/.
import { benchConfig } from './bench-config.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The built tree the server process runs from (ignored by git, eslint and prettier). */
export const BUILT = join(ROOT, 'dist-bench');

interface Started {
  url: string;
  /** createServer + listen: opening the store (and the play index) until the port answers. */
  startMs: number;
}

/** What the bench may ask the server process over IPC, and what it answers. */
export type Question = 'measures' | 'memory' | 'parsers' | 'save' | 'scan';
/** Where the server's memory is now, without collecting garbage first (MB). */
export interface MemoryNow {
  rss: number;
  /** The V8 heap's old generation (old, code and large-object spaces), reserved and in use. */
  oldReserved: number;
  oldUsed: number;
  /** The young generation (new and new large-object spaces), reserved. */
  youngReserved: number;
  /** Typed arrays and buffers, outside the V8 heap. */
  external: number;
}
export interface Measures {
  /** The longest the event loop was held up since listening (ms). */
  maxStallMs: number;
  /**
   * The requests received last before the longest hold-up a 2 ms timer saw, oldest first: where to
   * look when maxStallMs is high (the timer's figure runs ~2 ms above maxStallMs).
   */
  longestStallAfter: string[];
  /** The longest garbage collection since listening (ms): part of the stalls, V8's not ours. */
  maxGcMs: number;
  /** V8 heap plus typed arrays and buffers, after a full GC (bytes). */
  usedBytes: number;
  /** Of usedBytes, the typed arrays and buffers (bytes). */
  externalBytes: number;
}

async function serve(dataDir: string, musicDir: string | undefined): Promise<void> {
  const begin = performance.now();
  const server = await createServer({
    config: { ...benchConfig(dataDir), libraryDirs: musicDir ? [musicDir] : [] },
    logger: createLogger(),
    scanOnStart: false,
    exit: () => undefined,
    // As the `melon` command runs it.
    heapGrowth: tightHeapGrowth(),
  });
  const url = await server.listen();
  const started: Started = { url, startMs: performance.now() - begin };
  // Stalls of the event loop while serving (a save of the play index included), to 1 ms.
  const stalls = monitorEventLoopDelay({ resolution: 1 });
  stalls.enable();
  let maxGcMs = 0;
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) maxGcMs = Math.max(maxGcMs, entry.duration);
  });
  collections.observe({ entryTypes: ['gc'] });
  const stallAfter = watchStalls();
  process.on('message', (question: { ask: Question; id: number }) => {
    const answer = async () => {
      if (question.ask === 'save') {
        await server.saveStatsIndex();
        return {};
      }
      if (question.ask === 'memory') return memoryNow();
      if (question.ask === 'parsers') {
        await server.started;
        return { cpuMs: await loadPeerStartupParsers() };
      }
      if (question.ask === 'scan') {
        // The plays load after listening: the scan's figures are the scan's alone.
        await server.started;
        const scanStart = performance.now();
        const cpuStart = process.cpuUsage();
        server.services.library.startScan();
        await server.services.library.waitForIdle();
        const cpu = process.cpuUsage(cpuStart);
        return {
          scanMs: performance.now() - scanStart,
          cpuMs: (cpu.user + cpu.system) / 1000,
          status: server.services.library.scanStatus(),
        };
      }
      // Read before the forced collections below: they hold the loop up themselves, and are the
      // bench's doing, not the server's.
      const maxStallMs = stalls.max / 1e6;
      const longestStallAfter = stallAfter();
      collections.disconnect();
      // Full collections with pauses between: buffers freed by one are returned after it.
      const gc = (globalThis as { gc?: () => void }).gc;
      for (let i = 0; i < 3; i += 1) {
        gc?.();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const memory = process.memoryUsage();
      const measures: Measures = {
        maxStallMs,
        longestStallAfter,
        maxGcMs,
        usedBytes: memory.heapUsed + memory.external,
        externalBytes: memory.external,
      };
      return measures;
    };
    void answer().then((value) => process.send?.({ id: question.id, value }));
  });
  process.send?.(started);
  process.on('SIGTERM', () => {
    void server.close(2_000).then(() => process.exit(0));
  });
}

/**
 * The tag reader and the parsers of the formats whose readers supysonic loads when it starts (its
 * tag library, mediafile, imports mutagen itself and its MP3 with ID3, MP4, FLAC and ASF modules at
 * its own import; the others, Ogg and WAV among them, at the first file that needs them).
 * bench-scan-peer.ts takes supysonic's start-up off its figure, so these are loaded before Melon's
 * scan is measured: the same loading is then counted for neither. The server loads its tag reader
 * (music-metadata and the window tokenizer, server/library/tags.ts) at its first file read, and
 * music-metadata a parser at its first file of that format; the same modules (one instance each,
 * by their URLs) are imported here, the parsers by their file URLs beside music-metadata's entry
 * point, which exports no path to them. Answers the CPU ms their loading took.
 */
async function loadPeerStartupParsers(): Promise<number> {
  const cpuStart = process.cpuUsage();
  await import('music-metadata');
  await import('../server/library/window-tokenizer.js');
  const entry = import.meta.resolve('music-metadata');
  for (const file of ['mpeg/MpegParser.js', 'mp4/MP4Parser.js', 'flac/FlacParser.js', 'asf/AsfParser.js'])
    await import(new URL(file, entry).href);
  const cpu = process.cpuUsage(cpuStart);
  return (cpu.user + cpu.system) / 1000;
}

function memoryNow(): MemoryNow {
  const mb = (bytes: number) => bytes / 2 ** 20;
  let oldReserved = 0;
  let oldUsed = 0;
  let youngReserved = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name.startsWith('new')) youngReserved += space.space_size;
    else {
      oldReserved += space.space_size;
      oldUsed += space.space_used_size;
    }
  }
  const memory = process.memoryUsage();
  return {
    rss: mb(memory.rss),
    oldReserved: mb(oldReserved),
    oldUsed: mb(oldUsed),
    youngReserved: mb(youngReserved),
    external: mb(memory.external),
  };
}

/**
 * Notes the requests received last before the longest gap between ticks of a 2 ms timer (the
 * histogram of monitorEventLoopDelay says how long, not during what). Returns a reader of them.
 */
function watchStalls(): () => string[] {
  const recent: string[] = [];
  subscribe('http.server.request.start', (message) => {
    const { request } = message as { request: { method?: string; url?: string } };
    recent.push(`${request.method} ${request.url?.split('?')[0]}`);
    if (recent.length > 3) recent.shift();
  });
  let last = performance.now();
  let longest = 0;
  let after: string[] = [];
  setInterval(() => {
    const now = performance.now();
    if (now - last > longest) {
      longest = now - last;
      after = [...recent];
    }
    last = now;
  }, 2).unref();
  return () => after;
}

export interface ServerProcess extends Started {
  child: ChildProcess;
  /** Asks the server process for its measures, or to save its play index now. */
  ask<T>(question: Question): Promise<T>;
  /** Resident memory of the server process now, in MB. */
  rssMb(): number;
  /** SIGTERM, then wait for the exit (the store is flushed and the play index saved). */
  stop(): Promise<void>;
}

let built: Promise<string> | undefined;

/**
 * Builds the server and this file into dist-bench/, once per process; the path of the built
 * server-process.js. build-dist (and esbuild with it) is imported here, so the server process never
 * loads it.
 */
function buildServer(): Promise<string> {
  built ??= (async () => {
    const { buildDist, transpile } = await import('./build-dist.js');
    rmSync(BUILT, { recursive: true, force: true });
    await buildDist(['server', 'shared'], [], BUILT);
    await transpile(
      ['server-process.ts', 'bench-config.ts'].map((file) => join(ROOT, 'scripts', file)),
      BUILT,
    );
    return join(BUILT, 'scripts', 'server-process.js');
  })();
  return built;
}

/** `musicDir`: a music folder the server is given (not scanned at start; `ask('scan')` scans it). */
export async function startServerProcess(dataDir: string, musicDir?: string): Promise<ServerProcess> {
  const script = await buildServer();
  // The heap limits and V8 thread pool `npm start` gives the server (package.json): without the
  // limit, V8 sizes the heap by this machine's memory and lets garbage pile up far beyond what a NAS
  // would hold; the young generation and the pool, see README.
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--max-old-space-size=1024',
      '--max-semi-space-size=4',
      '--initial-old-space-size=96',
      '--v8-pool-size=1',
      // Extra V8/Node flags to look into the server while a bench drives it (e.g. `--cpu-prof
      // --cpu-prof-dir=/tmp/prof`): never set by the benches themselves.
      ...(process.env.MELON_BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []),
      script,
      dataDir,
      ...(musicDir ? [musicDir] : []),
    ],
    {
      // npm start's environment: glibc's malloc keeps blocks of 128 KB and more apart (mmap), so the
      // freed ones go back to the system instead of leaving holes between long-lived columns.
      env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' },
      // Request lines go to stdout like `npm start`'s; nobody reads them here.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  let asked = 0;
  const ask = <T>(question: Question) =>
    new Promise<T>((resolve) => {
      const id = ++asked;
      const listener = (message: { id?: number; value?: T }) => {
        if (message.id !== id) return;
        child.off('message', listener);
        resolve(message.value as T);
      };
      child.on('message', listener);
      child.send({ ask: question, id });
    });
  return new Promise((resolve, reject) => {
    child.once('message', (message: Started) =>
      resolve({ ...message, child, ask, rssMb: () => rssMb(child.pid!), stop }),
    );
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dataDir = process.argv[2];
  if (!dataDir) {
    console.error('usage: node dist-bench/scripts/server-process.js DATA_DIR [MUSIC_DIR]');
    process.exit(2);
  }
  await serve(dataDir, process.argv[3]);
}
