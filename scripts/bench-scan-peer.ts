/**
 * First scan of realistic files, side by side with a peer (`npm run bench:scan -- --compare
 * supysonic [--real-files N] [--runs N]`). Generates N files (default 64) in bench-data/scan-real/ (reused by
 * the next run): 3–6 minute tracks of pink noise and a tone under a tremolo, so that encoders work
 * as on music, in the usual formats and bit rates, each copied and given its own tags and, except
 * WAV, a 600×600 JPEG cover. Then, with the files in the page cache, it measures the CPU time of a
 * first scan by the real Melon server (in a process of its own, built as `npm start` runs it) and
 * by Debian's `supysonic-cli` (its own config and database in a temp folder). Where supysonic is
 * not installed it uses a reference figure measured here before. With `--runs N` each scans N
 * times, one after the other, and the figures are the medians. Melon's first scan is also split
 * into what each file costs once the code is warm (bench-scan-reads.ts) and what the first files
 * cost once.
 *
 * What is counted, on each side: the CPU (user + system, every thread: V8's compiler and collector
 * threads, libuv's pool, SQLite's) that a first scan of the folder adds to the program having
 * started, divided by the files.
 * - supysonic: `supysonic-cli folder scan` of the folder, less the same command over an empty
 *   folder. Taken off: Python's start, the imports (supysonic, pony, and its tag library mediafile,
 *   which imports mutagen's MP3/ID3, MP4, FLAC and ASF modules; Debian ships them compiled to .pyc),
 *   opening the database, and a scan's fixed work. Counted: the walk, the reading of tags, covers
 *   and lengths, the modules mutagen imports at its first file (Ogg, Opus, WAV...), the SQLite
 *   writes.
 * - Melon: the scan alone, from its start to library.json written and the catalog rebuilt, in a
 *   server that has started (Node's start, the imports, opening the store and the plays not
 *   counted). Before the scan, the server loads its tag reader (music-metadata, which it loads at
 *   its first file read) and music-metadata's parsers of the formats whose mutagen modules
 *   mediafile imports at its start (scripts/server-process.ts): supysonic's start counts their
 *   loading, so neither side's figure does (it is reported beside, as
 *   `melonStartupParsersCpuMs`). Counted: the walk, the reads, the other parsers' loading (Ogg,
 *   WAV) at their first file, as supysonic's, the writing of library.json, and V8 compiling the
 *   code as it first runs: Python has no such step (its bytecode is on disk, and it has no
 *   optimizing compiler), so this is a real cost of Melon's first scan, counted in full. A scan
 *   over no files is not taken off Melon's figure (a few ms). How V8 runs while files are read
 *   (server/library/scan-reading.ts) is the server's own, as every scan runs, in the warm reads
 *   too. Not counted: what the end of the scan leaves to later turns (search indexes, album
 *   orders, the artist index's answers, made for players' first reads), a few ms for this folder;
 *   supysonic makes nothing of the kind ahead.
 *
 * Prints a table, then as its last line one JSON object with the figures.
 */
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ScanStatus } from '../server/contract/library.js';
import { transpile } from './build-dist.js';
import type { WarmReads } from './bench-scan-reads.js';
import { BUILT, startServerProcess } from './server-process.js';
import { editTags, ffmpeg, pictureFromFile } from './tagged-audio.js';

const run = promisify(execFile);
const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');
const REAL = path.join(ROOT, 'bench-data', 'scan-real');

/**
 * supysonic 0.7.2's CPU per file on a first scan of real 3–5 minute recordings (Debian's game-music
 * packages), used when it is not installed (docs/BENCHMARKS.md).
 */
const SUPYSONIC_REFERENCE_MS_PER_FILE = 10.7;

/** The usual ways music is encoded; one in eight files of each. */
const VARIANTS = [
  { name: 'mp3-cbr192', ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '192k'] },
  // Older rippers wrote CBR without a Xing/Info header.
  {
    name: 'mp3-cbr320-no-xing',
    ext: 'mp3',
    args: ['-c:a', 'libmp3lame', '-b:a', '320k', '-write_xing', '0'],
  },
  { name: 'mp3-vbr-v2', ext: 'mp3', args: ['-c:a', 'libmp3lame', '-q:a', '2'] },
  { name: 'flac', ext: 'flac', args: ['-c:a', 'flac'] },
  { name: 'm4a-aac256', ext: 'm4a', args: ['-c:a', 'aac', '-b:a', '256k', '-f', 'ipod'] },
  { name: 'ogg-vorbis-q5', ext: 'ogg', args: ['-c:a', 'libvorbis', '-q:a', '5'] },
  { name: 'opus-128', ext: 'opus', args: ['-c:a', 'libopus', '-b:a', '128k'] },
  { name: 'wav', ext: 'wav', args: ['-c:a', 'pcm_s16le'] },
] as const;
type Variant = (typeof VARIANTS)[number];

const GENRES = ['Rock', 'Jazz', 'Ambient', 'Folk', 'Hip-Hop', 'Classical', 'Synthpop', 'Blues'];

/** Between 3 and 6 minutes, different for each source. */
function secondsOf(variant: number, take: number): number {
  return 180 + (((variant * 2 + take) * 53) % 180);
}

function fileOf(i: number): { path: string; variant: Variant; take: number } {
  const variant = VARIANTS[i % VARIANTS.length]!;
  const n = Math.floor(i / VARIANTS.length);
  const name = `${String(n + 1).padStart(2, '0')} - Real ${i}.${variant.ext}`;
  return { path: path.join(REAL, `Artist ${n % 4}`, variant.name, name), variant, take: n % 2 };
}

/** Two encodes of each variant and the cover, the sources every file is copied from. */
async function makeSources(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const cover = path.join(dir, 'cover.jpg');
  await ffmpeg(['-f', 'lavfi', '-i', 'mandelbrot=s=600x600', '-frames:v', '1', '-q:v', '3', cover]);
  for (const [v, variant] of VARIANTS.entries()) {
    for (let take = 0; take < 2; take++) {
      const out = path.join(dir, `${variant.name}-${take}.${variant.ext}`);
      const seconds = secondsOf(v, take);
      const rate = variant.ext === 'opus' ? 48000 : 44100;
      await ffmpeg([
        ...[
          '-f',
          'lavfi',
          '-i',
          `anoisesrc=color=pink:amplitude=0.3:sample_rate=${rate}:duration=${seconds}`,
        ],
        ...[
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=${220 + take * 110}:sample_rate=${rate}:duration=${seconds}`,
        ],
        ...['-filter_complex', 'amix=inputs=2,tremolo=f=1.5:d=0.7,aformat=channel_layouts=stereo'],
        ...variant.args,
        out,
      ]);
    }
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && !e.parentPath.includes(`${path.sep}.sources`))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Makes the first `count` files that are not there yet; parks the ones beyond `count`. */
async function ensureRealFiles(count: number): Promise<string[]> {
  const sources = path.join(REAL, '.sources');
  const wanted = Array.from({ length: count }, (_, i) => fileOf(i));
  const existing = new Set(await listFiles(REAL));
  const parked = path.join(path.dirname(REAL), 'scan-real-parked');
  for (const file of existing) {
    if (wanted.some((w) => w.path === file)) continue;
    const to = path.join(parked, path.relative(REAL, file));
    await mkdir(path.dirname(to), { recursive: true });
    await rename(file, to);
  }
  const missing = wanted.filter((w) => !existing.has(w.path));
  if (missing.length === 0) return wanted.map((w) => w.path);
  if (!(await listFiles(sources).catch(() => [])).length) await makeSources(sources);
  const cover = await pictureFromFile(path.join(sources, 'cover.jpg'), 'image/jpeg');
  for (const w of missing) {
    await mkdir(path.dirname(w.path), { recursive: true });
    const temp = path.join(path.dirname(w.path), `.tmp-${path.basename(w.path)}`);
    await copyFile(path.join(sources, `${w.variant.name}-${w.take}.${w.variant.ext}`), temp);
    const i = wanted.indexOf(w);
    editTags(temp, (tagged) => {
      tagged.tag.title = `Real ${i}`;
      tagged.tag.performers = [`Artist ${Math.floor(i / VARIANTS.length) % 4}`];
      tagged.tag.albumArtists = tagged.tag.performers;
      tagged.tag.album = w.variant.name;
      tagged.tag.track = Math.floor(i / VARIANTS.length) + 1;
      tagged.tag.year = 1990 + (i % 30);
      tagged.tag.genres = [GENRES[i % GENRES.length]!];
      if (w.variant.ext !== 'wav') tagged.tag.pictures = [cover];
    });
    await rename(temp, w.path);
  }
  return wanted.map((w) => w.path);
}

/** Reads every file once, so neither scanner pays for the disk and both find them cached. */
async function warmCache(files: string[]): Promise<void> {
  for (const file of files)
    await new Promise<void>((resolve, reject) => {
      createReadStream(file, { highWaterMark: 1 << 20 })
        .on('data', () => undefined)
        .on('end', resolve)
        .on('error', reject);
    });
}

// ------------------------------------------------------------------------------------------- Melon

interface MelonScan {
  cpuMs: number;
  /** Loading the parsers supysonic loads at its start (not in cpuMs). */
  parsersCpuMs: number;
  wallMs: number;
  added: number;
  errors: number;
}

/**
 * A first scan by the real server in a process of its own, running the built JavaScript as
 * `npm start` does (server-process.ts): tsx's loader would add its own work to every module the
 * scan loads.
 */
async function melonScan(): Promise<MelonScan> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'melon-bench-peer-'));
  try {
    const server = await startServerProcess(dataDir, REAL);
    const { parsers, scan } = await (async () => ({
      parsers: await server.ask<{ cpuMs: number }>('parsers'),
      scan: await server.ask<{ scanMs: number; cpuMs: number; status: ScanStatus }>('scan'),
    }))().finally(() => server.stop());
    return {
      cpuMs: scan.cpuMs,
      parsersCpuMs: parsers.cpuMs,
      wallMs: scan.scanMs,
      added: scan.status.added,
      errors: scan.status.problemCount,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Each file's reading alone, warm, in another process over the same built code. */
async function melonWarmReads(): Promise<WarmReads> {
  await transpile([path.join(ROOT, 'scripts', 'bench-scan-reads.ts')], BUILT);
  const { stdout } = await run(process.execPath, [path.join(BUILT, 'scripts', 'bench-scan-reads.js'), REAL]);
  return JSON.parse(stdout.trim().split('\n').pop()!) as WarmReads;
}

// --------------------------------------------------------------------------------------- supysonic

/** CPU seconds (user + system) of `supysonic-cli` scanning `folder` from scratch, in `dir`. */
async function supysonicScanCpuMs(dir: string, folder: string): Promise<number> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'cache'), { recursive: true });
  await writeFile(
    path.join(dir, 'supysonic.conf'),
    `[base]\ndatabase_uri = sqlite:///${dir}/supysonic.db\n[webapp]\ncache_dir = ${dir}/cache\n` +
      `[daemon]\nsocket = ${dir}/daemon.sock\n`,
  );
  await run('supysonic-cli', ['folder', 'add', 'bench', folder], { cwd: dir });
  // The children's resource usage is what Python reports after it waited for the scan.
  const { stdout } = await run(
    'python3',
    [
      '-c',
      'import resource, subprocess, sys\n' +
        "subprocess.run(['supysonic-cli', 'folder', 'scan', '--force', '--foreground', 'bench'], check=True, stdout=subprocess.DEVNULL)\n" +
        'u = resource.getrusage(resource.RUSAGE_CHILDREN)\n' +
        'print((u.ru_utime + u.ru_stime) * 1000)',
    ],
    { cwd: dir },
  );
  return Number(stdout.trim().split('\n').pop());
}

async function supysonicInstalled(): Promise<boolean> {
  return run('sh', ['-c', 'command -v supysonic-cli']).then(
    () => true,
    () => false,
  );
}

// --------------------------------------------------------------------------------------------- main

/** supysonic's CPU a file for a first scan of the folder, its start-up taken off. */
async function supysonicMsPerFile(files: number): Promise<number> {
  const work = await mkdtemp(path.join(tmpdir(), 'melon-bench-supysonic-'));
  try {
    const empty = path.join(work, 'empty');
    await mkdir(empty);
    const baseline = await supysonicScanCpuMs(path.join(work, 'a'), empty);
    const scan = await supysonicScanCpuMs(path.join(work, 'b'), REAL);
    return (scan - baseline) / files;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * `runs` first scans of each, Melon's and the peer's one after the other, so that both meet the
 * same moments of a busy machine; the figures are the medians, each run's listed too.
 */
export async function comparePeer(peer: string, files: number, runs = 1): Promise<void> {
  if (peer !== 'supysonic') throw new Error('--compare knows only supysonic');
  console.log(`bench:scan --compare ${peer} — ${files} realistic files in ${path.relative(ROOT, REAL)}/`);
  const list = await ensureRealFiles(files);
  await warmCache(list);
  const measured = await supysonicInstalled();
  const melonRuns: MelonScan[] = [];
  const peerRuns: number[] = [];
  for (let r = 0; r < runs; r++) {
    const melon = await melonScan();
    if (melon.added !== files || melon.errors !== 0)
      throw new Error(`Melon's first scan added ${melon.added} of ${files} files, ${melon.errors} refused`);
    melonRuns.push(melon);
    if (measured) peerRuns.push(await supysonicMsPerFile(files));
  }
  const warm = await melonWarmReads();
  const peerMsPerFile = measured ? median(peerRuns) : SUPYSONIC_REFERENCE_MS_PER_FILE;
  const peerSource = measured ? 'measured' : 'reference';
  const melonMsPerFile = median(melonRuns.map((m) => m.cpuMs / files));
  // What the first files cost beyond the rest: compiling the code and loading the parsers.
  const fixedMs = (melonMsPerFile - warm.all) * files;
  const wallMs = median(melonRuns.map((m) => m.wallMs));
  for (const [variant, ms] of Object.entries(warm.byFolder).sort())
    console.log(`  Melon tag reading  ${variant.padEnd(20)} ${ms.toFixed(1)} ms CPU a file (warm)`);
  console.log(
    `  Melon first scan   ${melonMsPerFile.toFixed(1)} ms CPU a file (${Math.round(wallMs)} ms wall; ` +
      `warm ${warm.all.toFixed(1)} ms a file + ${Math.round(fixedMs)} ms once)`,
  );
  console.log(`  ${peer} first scan ${peerMsPerFile.toFixed(1)} ms CPU a file (${peerSource})`);
  const round2 = (ms: number) => Number(ms.toFixed(2));
  const result = {
    files,
    runs,
    melonCpuMsPerFile: round2(melonMsPerFile),
    melonFirstScanMs: Math.round(wallMs),
    [`${peer}CpuMsPerFile`]: round2(peerMsPerFile),
    [`${peer}Figure`]: peerSource,
    melonToPeer: round2(melonMsPerFile / peerMsPerFile),
    melonWarmCpuMsPerFile: round2(warm.all),
    melonFixedCpuMs: Math.round(fixedMs),
    melonStartupParsersCpuMs: Math.round(median(melonRuns.map((m) => m.parsersCpuMs))),
    melonCpuMsPerFileRuns: melonRuns.map((m) => round2(m.cpuMs / files)),
    [`${peer}CpuMsPerFileRuns`]: peerRuns.map(round2),
    melonCpuMsPerFileByFormat: Object.fromEntries(
      Object.entries(warm.byFolder).map(([k, v]) => [k, round2(v)]),
    ),
  };
  console.log(JSON.stringify(result));
}
