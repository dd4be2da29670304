/**
 * Library scanning bench. Generates N real audio files (default 5,000): short ffmpeg
 * encodes in six formats, each copied and given its own tags with node-taglib-sharp (title, artists,
 * album, track, year, genre; a cover picture on most), in bench-data/scan-audio/ (gitignored, reused
 * by the next run). Then the real server, in a process of its own so its resident memory is its own,
 * scans the folder three times: first scan, unchanged rescan, and a rescan after 1 % of the files got
 * new tags. Last, the cost of a 100,000-track library.json: write and load through the real store.
 *
 *   npm run bench:scan -- [--files N]
 *   npm run bench:scan -- --compare supysonic [--real-files N] [--runs N]   (see bench-scan-peer.ts)
 *
 * Prints a table, then as its last line one JSON object with the figures.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { LibraryIndex, TrackRecord } from '../server/domain/library.js';
import { albumId, artistId, trackId } from '../server/domain/library-ids.js';
import { LibraryRepo } from '../server/store/library-repo.js';
import { argValue, startScanServer } from './bench-data.js';
import { comparePeer } from './bench-scan-peer.js';
import { AUDIO, changeOnePercent, GENRES, ensureAudio, trimTo } from './bench-scan-audio.js';

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');

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
  const server = await startScanServer(dataDir, AUDIO);
  const library = server.services.library;
  // The plays load after listening: the scans' figures are the scans' alone.
  await server.started;
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
    const runs = Number(argValue(args, '--runs') ?? 1);
    if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number ≥ 1');
    return comparePeer(peer, realFiles, runs);
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
