/**
 * Library scanning bench. Generates N real audio files (default 5,000): short ffmpeg
 * encodes in six formats, each copied and given its own tags with node-taglib-sharp (title, artists,
 * album, track, year, genre; a cover picture on most), in bench-data/scan-audio/ (gitignored, reused
 * by the next run). Then the real server, in a process of its own so its resident memory is its own,
 * scans the folder three times: first scan, unchanged rescan, and a rescan after 1 % of the files got
 * new tags. Last, the cost of a 100,000-track library.json: write and load through the real store.
 *
 *   npm run bench:scan -- [--files N]
 *   npm run bench:scan -- --compare supysonic [--real-files N]   (see bench-scan-peer.ts)
 *
 * Prints a table, then as its last line one JSON object with the figures.
 */
import { execFile, fork } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  ByteVector,
  File as TagFile,
  MpegAudioFileSettings,
  Picture,
  PictureType,
  TagTypes,
} from 'node-taglib-sharp';
import type { LibraryIndex, TrackRecord } from '../server/domain/library.js';
import { albumId, artistId, trackId } from '../server/domain/library-ids.js';
import { createServer } from '../server/create-server.js';
import { LibraryRepo } from '../server/store/library-repo.js';
import { argValue, benchConfig, quietLogger } from './bench-data.js';
import { comparePeer } from './bench-scan-peer.js';

const run = promisify(execFile);
const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');
const AUDIO = path.join(ROOT, 'bench-data', 'scan-audio');

/** Formats and their share of the generated library (roughly a household's mix). */
const FORMATS = [
  { ext: 'mp3', share: 40, args: ['-c:a', 'libmp3lame', '-b:a', '64k'] },
  { ext: 'flac', share: 15, args: ['-c:a', 'flac'] },
  { ext: 'm4a', share: 20, args: ['-c:a', 'aac', '-b:a', '48k', '-f', 'ipod'] },
  { ext: 'ogg', share: 10, args: ['-c:a', 'libvorbis', '-q:a', '0'] },
  { ext: 'opus', share: 10, args: ['-c:a', 'libopus', '-b:a', '24k'] },
  { ext: 'wav', share: 5, args: ['-c:a', 'pcm_s16le'] },
] as const;
const GENRES = ['Rock', 'Jazz', 'Ambient', 'Folk', 'Hip-Hop', 'Classical', 'Synthpop', 'Blues'];

// ------------------------------------------------------------------------------------------ generation

function formatOf(i: number): (typeof FORMATS)[number] {
  let slot = (i * 37) % 100;
  for (const format of FORMATS) {
    if (slot < format.share) return format;
    slot -= format.share;
  }
  return FORMATS[0];
}

/** Where file i lives: artist / album / "NN - Title.ext", twelve tracks an album, six albums an artist. */
function fileOf(i: number): { path: string; artist: string; album: string; track: number; title: string } {
  const albumNo = Math.floor(i / 12);
  const artist = `Bench Artist ${String(Math.floor(albumNo / 6)).padStart(4, '0')}`;
  const album = `Album ${String(albumNo).padStart(5, '0')}`;
  const track = (i % 12) + 1;
  const title = `Song ${i}`;
  const name = `${String(track).padStart(2, '0')} - ${title}.${formatOf(i).ext}`;
  return { path: path.join(AUDIO, artist, album, name), artist, album, track, title };
}

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

/** Four encodes of each format (1–3 s, different tones), the sources every bench file is copied from. */
async function makeSources(dir: string): Promise<Map<string, string[]>> {
  await mkdir(dir, { recursive: true });
  const cover = path.join(dir, 'cover.jpg');
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=orange:s=300x300',
    '-frames:v',
    '1',
    '-pix_fmt',
    'yuvj420p',
    cover,
  ]);
  const sources = new Map<string, string[]>();
  const jobs: Array<() => Promise<void>> = [];
  for (const format of FORMATS) {
    const list: string[] = [];
    sources.set(format.ext, list);
    for (let v = 0; v < 4; v++) {
      const out = path.join(dir, `source-${v}.${format.ext}`);
      list.push(out);
      const rate = format.ext === 'opus' ? 48000 : 44100;
      jobs.push(() =>
        ffmpeg([
          ...[
            '-f',
            'lavfi',
            '-i',
            `sine=frequency=${300 + v * 110}:sample_rate=${rate}:duration=${1 + (v % 3)}`,
          ],
          ...['-ac', '2', ...format.args, out],
        ]),
      );
    }
  }
  await inParallel(jobs, 2);
  return sources;
}

async function inParallel(jobs: Array<() => Promise<void>>, workers: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
}

/** Writes file i's own tags (and, on four files out of five, a cover) into `file`. */
function tagFile(file: string, i: number, cover: Picture, titleSuffix = ''): void {
  const meta = fileOf(i);
  const tagged = TagFile.createFromPath(file);
  try {
    const tag = tagged.tag;
    tag.title = meta.title + titleSuffix;
    tag.performers = i % 9 === 0 ? [meta.artist, `Guest ${i % 50}`] : [meta.artist];
    tag.albumArtists = [meta.artist];
    tag.album = meta.album;
    tag.track = meta.track;
    tag.trackCount = 12;
    tag.year = 1970 + (Math.floor(i / 12) % 50);
    tag.genres = [GENRES[i % GENRES.length]!];
    if (i % 5 !== 0 && !file.endsWith('.wav')) tag.pictures = [cover];
    tagged.save();
  } finally {
    tagged.dispose();
  }
}

/** Makes the first `count` bench files that are not there yet; returns how many it made. */
async function ensureAudio(count: number): Promise<number> {
  const sourcesDir = path.join(AUDIO, '.sources');
  const existing = new Set(await listFiles(AUDIO));
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !existing.has(fileOf(i).path));
  if (missing.length === 0) return 0;
  const sources = await makeSources(sourcesDir);
  const cover = Picture.fromFullData(
    ByteVector.fromByteArray(await readFile(path.join(sourcesDir, 'cover.jpg'))),
    PictureType.FrontCover,
    'image/jpeg',
    'Cover',
  );
  MpegAudioFileSettings.defaultTagTypes = TagTypes.Id3v2;
  const started = performance.now();
  for (const [n, i] of missing.entries()) {
    const meta = fileOf(i);
    await mkdir(path.dirname(meta.path), { recursive: true });
    const source = sources.get(formatOf(i).ext)![i % 4]!;
    // Tagged under a hidden name, then renamed: an interrupted run leaves no half-tagged bench file.
    // (taglib picks the format by the extension, so it stays last).
    const temp = path.join(path.dirname(meta.path), `.tmp-${path.basename(meta.path)}`);
    await copyFile(source, temp);
    tagFile(temp, i, cover);
    await rename(temp, meta.path);
    if ((n + 1) % 1000 === 0)
      console.log(`  generated ${n + 1}/${missing.length} (${Math.round(performance.now() - started)} ms)`);
  }
  return missing.length;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** New tags on 1 % of the files (spread over the library), as a tag editor would write them. */
async function changeOnePercent(files: number, round: number): Promise<number> {
  const sourcesDir = path.join(AUDIO, '.sources');
  const cover = Picture.fromFullData(
    ByteVector.fromByteArray(await readFile(path.join(sourcesDir, 'cover.jpg'))),
    PictureType.FrontCover,
    'image/jpeg',
    'Cover',
  );
  const count = Math.max(1, Math.round(files / 100));
  for (let k = 0; k < count; k++)
    tagFile(fileOf(Math.floor((k * files) / count)).path, k, cover, ` (edit ${round})`);
  return count;
}

// --------------------------------------------------------------------------------------- the server side

interface ScanFigures {
  firstScanMs: number;
  firstScan: { seen: number; added: number; errors: number };
  rescanMs: number;
  changedRescanMs: number;
  changedRescan: { updated: number };
  rssMb: number;
}

/** Runs in the child: the real server over the bench folder; scans when the parent says so. */
async function serveAndScan(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'melon-bench-scan-'));
  const config = { ...benchConfig(dataDir), libraryDirs: [AUDIO] };
  const server = await createServer({
    config,
    logger: quietLogger(),
    scanOnStart: false,
    library: { watch: false },
    exit: () => undefined,
  });
  await server.listen();
  const library = server.services.library;
  const scan = async () => {
    const started = performance.now();
    library.startScan();
    await library.waitForIdle();
    return { ms: performance.now() - started, status: library.scanStatus() };
  };
  const first = await scan();
  const again = await scan();
  process.send!({ step: 'change' });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const changed = await scan();
  const figures: ScanFigures = {
    firstScanMs: first.ms,
    firstScan: {
      seen: first.status.filesSeen,
      added: first.status.added,
      errors: first.status.problemCount,
    },
    rescanMs: again.ms,
    changedRescanMs: changed.ms,
    changedRescan: { updated: changed.status.updated },
    rssMb: process.memoryUsage().rss / 2 ** 20,
  };
  process.send!({ step: 'done', figures });
  await server.close(500);
  await rm(dataDir, { recursive: true, force: true });
}

function runServerChild(files: number): Promise<ScanFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--child'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    child.on('message', (message: { step: string; figures?: ScanFigures }) => {
      if (message.step === 'change')
        void changeOnePercent(files, Date.now()).then(
          () => child.send('go'),
          (err: unknown) => reject(err as Error),
        );
      else if (message.step === 'done') resolve(message.figures!);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`scan child exited with ${code}`));
    });
  });
}

// ----------------------------------------------------------------------------------- 100k library.json

/** A synthetic 100,000-track catalogue shaped like a scanned one (paths, tags, a cover each). */
function catalogue(tracks: number): LibraryIndex {
  const index: LibraryIndex = { tracks: [], albums: [], artists: [] };
  for (let a = 0; a < tracks / 60; a++) {
    const name = `Catalogue Artist ${a}`;
    index.artists.push({ id: artistId(name), name });
  }
  for (let al = 0; al < tracks / 12; al++) {
    const artist = index.artists[Math.floor(al / 5) % index.artists.length]!;
    const name = `Catalogue Album ${al}`;
    index.albums.push({
      id: albumId(name, artist.name),
      name,
      artistIds: [artist.id],
      year: 1970 + (al % 50),
    });
  }
  for (let i = 0; i < tracks; i++) {
    const album = index.albums[Math.floor(i / 12)]!;
    const file = `/home/household/Music/${album.artistIds[0]}/${album.name}/${String((i % 12) + 1).padStart(2, '0')} - Catalogue Song ${i}.flac`;
    const track: TrackRecord = {
      id: trackId(file),
      path: file,
      size: 25_000_000 + i,
      mtimeMs: 1_700_000_000_000 + i,
      name: `Catalogue Song ${i}`,
      albumId: album.id,
      artistIds: album.artistIds,
      genres: [GENRES[i % GENRES.length]!],
      durationMs: 180_000 + (i % 120_000),
      trackNumber: (i % 12) + 1,
      discNumber: 1,
      year: album.year,
      format: 'flac',
      artwork: [{ pos: 0, type: 'front cover', mime: 'image/jpeg', width: 600, height: 600, size: 80_000 }],
    };
    index.tracks.push(track);
  }
  return index;
}

async function catalogueTimes(tracks: number): Promise<{ writeMs: number; loadMs: number; mb: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'melon-bench-catalogue-'));
  try {
    const file = path.join(dir, 'library.json');
    const index = catalogue(tracks);
    const repo = await LibraryRepo.open(file);
    let started = performance.now();
    await repo.replace(index);
    const writeMs = performance.now() - started;
    started = performance.now();
    const loaded = await LibraryRepo.open(file);
    const loadMs = performance.now() - started;
    if (loaded.index().tracks.length !== tracks) throw new Error('catalogue did not load back');
    const { size } = await stat(file);
    return { writeMs, loadMs, mb: size / 2 ** 20 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// --------------------------------------------------------------------------------------------- main

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const peer = argValue(args, '--compare');
  if (peer !== undefined) {
    const realFiles = Number(argValue(args, '--real-files') ?? 64);
    if (!Number.isInteger(realFiles) || realFiles < 8)
      throw new Error('--real-files must be a whole number ≥ 8');
    return comparePeer(peer, realFiles);
  }
  const files = Number(argValue(args, '--files') ?? 5_000);
  if (!Number.isInteger(files) || files < 100) throw new Error('--files must be a whole number ≥ 100');
  console.log(`bench:scan — ${files} files in ${path.relative(ROOT, AUDIO)}/`);
  // A larger earlier run leaves more files: the scan covers exactly `files` of them only if the
  // folder holds just those, so extra ones are moved out of the way (and parked ones come back).
  await trimTo(files);
  const made = await ensureAudio(files);
  console.log(`  ${made === 0 ? 'reused the generated files' : `generated ${made} files`}`);

  const scan = await runServerChild(files);
  if (scan.firstScan.added !== files || scan.firstScan.errors !== 0)
    throw new Error(
      `first scan added ${scan.firstScan.added} of ${files} files, ${scan.firstScan.errors} refused`,
    );
  const catalogueFigures = await catalogueTimes(100_000);

  const result = {
    files,
    firstScanFilesPerS: Math.round(files / (scan.firstScanMs / 1000)),
    rescanFilesPerS: Math.round(files / (scan.rescanMs / 1000)),
    changedRescanMs: Math.round(scan.changedRescanMs),
    rssMb: Math.round(scan.rssMb),
    catalogue100kWriteMs: Math.round(catalogueFigures.writeMs),
    catalogue100kLoadMs: Math.round(catalogueFigures.loadMs),
  };
  console.log(
    `  first scan          ${result.firstScanFilesPerS} files/s (${Math.round(scan.firstScanMs)} ms)`,
  );
  console.log(`  unchanged rescan    ${result.rescanFilesPerS} files/s (${Math.round(scan.rescanMs)} ms)`);
  console.log(
    `  1 % changed rescan  ${result.changedRescanMs} ms (${scan.changedRescan.updated} files re-read)`,
  );
  console.log(`  server RSS          ${result.rssMb} MB`);
  console.log(
    `  100k library.json   write ${result.catalogue100kWriteMs} ms, load ${result.catalogue100kLoadMs} ms (${catalogueFigures.mb.toFixed(0)} MB)`,
  );
  console.log(JSON.stringify(result));
}

/** Moves bench files numbered `files` and above into a parked folder the scan does not see. */
async function trimTo(files: number): Promise<void> {
  const wanted = new Set(Array.from({ length: files }, (_, i) => fileOf(i).path));
  const parked = path.join(path.dirname(AUDIO), 'scan-audio-parked');
  for (const file of await listFiles(AUDIO)) {
    if (wanted.has(file) || file.includes(`${path.sep}.sources${path.sep}`)) continue;
    const to = path.join(parked, path.relative(AUDIO, file));
    await mkdir(path.dirname(to), { recursive: true });
    await rename(file, to);
  }
  // And back again the ones a smaller earlier run parked.
  for (const file of await listFiles(parked)) {
    const home = path.join(AUDIO, path.relative(parked, file));
    if (!wanted.has(home)) continue;
    await mkdir(path.dirname(home), { recursive: true });
    await rename(file, home);
  }
}

if (process.argv.includes('--child')) {
  serveAndScan().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
