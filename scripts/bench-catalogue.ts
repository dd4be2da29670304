/**
 * A collector's library: `npm run bench -- --tracks N [--plays P] [--runs R]` (default 1M plays).
 * Makes N tiny valid MP3 files in bench-data/catalogue-v2-N/ (reused by the next run) and a catalogue
 * of them with realistic tags (ten tracks an album, 25 an artist, a guest on one track in ten,
 * genres, years), then a data folder with P plays over it (bench-data.ts). Each run starts the real
 * server on a fresh copy in a process of its own, with that folder as its music folder, and
 * measures: listening and the first statistics answer, a full Subsonic sync (search3 with an empty
 * query, 500 songs a page, as Symfonium and others sync), getAlbumList2 pages (newest and by name,
 * 500 a page, deep pages too), getArtists, search3 by word, the server's resident memory, and a
 * rescan with nothing changed. Beside it, the time to load library.json through the store.
 *
 * Prints a table per run and, as its last line, one JSON object (the worst of each figure).
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { AlbumRecord, ArtistRecord, LibraryIndex, TrackRecord } from '../server/domain/library.js';
import { albumId, artistId, trackId } from '../server/domain/library-ids.js';
import { LibraryRepo } from '../server/store/library-repo.js';
import {
  buildBenchData,
  runTsxScript,
  signInAndFirstStatsMs,
  untilStarted,
  type BenchData,
} from './bench-data.js';
import { closeRequests, request } from './bench-timing.js';
import { startServerProcess, type MemoryNow } from './server-process.js';

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');
const WORDS = (
  'blue night river gold summer fire heart city rain light ghost dream stone road winter wild ' +
  'electric silver ocean shadow morning paper glass echo velvet thunder golden moon song home ' +
  'broken sweet midnight neon island garden highway lonely crystal'
).split(' ');
const GENRES = [
  'Rock',
  'Pop',
  'Jazz',
  'Hip-Hop',
  'Electronic',
  'Classical',
  'Folk',
  'Metal',
  'Soul',
  'Ambient',
];

// The folder's name changes with the shape of the paths (`shapeOf`): files of another shape left in
// it would be new files to a rescan that should find nothing changed.
const folderFor = (tracks: number): string => path.join(ROOT, 'bench-data', `catalogue-v2-${tracks}`);
const title = (i: number): string =>
  `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} ${WORDS[(i * 13 + 5) % WORDS.length]}`;
const capital = (s: string): string => s.replace(/\b\w/g, (c) => c.toUpperCase());

interface Shape {
  file: string;
  artist: string;
  album: string;
  albumNo: number;
  track: number;
}

/**
 * Artist number `n` of the pool, always by the same name: the word comes from `n` itself, so a
 * guest drawn from the pool is one of the album artists (tracks / 25 artists in all), not a name of
 * its own.
 */
const artistName = (n: number): string => `${capital(WORDS[n % WORDS.length]!)} Artist ${n}`;

function shapeOf(dir: string, i: number, artists: number): Shape {
  const albumNo = Math.floor(i / 10);
  const artist = artistName(albumNo % artists);
  const album = `${capital(title(albumNo * 3))} ${albumNo}`;
  const track = (i % 10) + 1;
  const name = `${String(track).padStart(2, '0')} - ${capital(title(i))}.mp3`;
  return { file: path.join(dir, artist, album, name), artist, album, albumNo, track };
}

/** A valid MP3 of a fraction of a second, the bytes of every file (the rescan only stats them). */
async function tinyMp3(): Promise<Buffer> {
  const out = path.join(await mkdtemp(path.join(tmpdir(), 'melon-tiny-')), 'a.mp3');
  await promisify(execFile)('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'sine=duration=0.2:sample_rate=8000'],
    ...['-c:a', 'libmp3lame', '-b:a', '8k', '-ac', '1', out],
  ]);
  return readFile(out);
}

/** What a scan records of a track's file. */
export type FileFacts = Pick<TrackRecord, 'size' | 'mtimeMs' | 'dev' | 'ino' | 'artwork'>;

/**
 * The catalogue of `tracks` tracks below `dir`, shaped as above; `factsOf` gives each file's size,
 * time, identity and pictures.
 */
export function catalogueOf(tracks: number, dir: string, factsOf: (i: number) => FileFacts): LibraryIndex {
  const artistsCount = Math.max(1, Math.round(tracks / 25));
  const artists = new Map<string, ArtistRecord>();
  const albums = new Map<number, AlbumRecord>();
  const records: TrackRecord[] = [];
  const artistOf = (name: string): ArtistRecord => {
    let artist = artists.get(name);
    if (!artist) artists.set(name, (artist = { id: artistId(name), name }));
    return artist;
  };
  for (let i = 0; i < tracks; i++) {
    const s = shapeOf(dir, i, artistsCount);
    const lead = artistOf(s.artist);
    const guest = i % 10 === 3 ? artistOf(artistName((i * 31) % artistsCount)) : null;
    let album = albums.get(s.albumNo);
    if (!album) {
      album = {
        id: albumId(s.album, s.artist),
        name: s.album,
        artist: s.artist,
        artistIds: [lead.id],
        year: 1960 + ((s.albumNo * 7) % 64),
      };
      albums.set(s.albumNo, album);
    }
    const credited = guest && guest.id !== lead.id;
    records.push({
      id: trackId(s.file),
      path: s.file,
      // Device and inode as a scan records them: without them a rescan would add them and rewrite
      // the library.
      ...factsOf(i),
      name: capital(title(i)),
      // The credit as a scan records it: a record without one is read again by the next scan.
      artist: credited ? `${lead.name}, ${guest.name}` : lead.name,
      albumId: album.id,
      artistIds: credited ? [lead.id, guest.id] : [lead.id],
      genres: [GENRES[(s.albumNo * 3) % GENRES.length]!],
      durationMs: 150_000 + ((i * 7919) % 240_000),
      trackNumber: s.track,
      discNumber: 1,
      year: album.year,
      format: 'mp3',
    });
  }
  return { tracks: records, albums: [...albums.values()], artists: [...artists.values()] };
}

/** Writes the files not there yet; returns the catalogue of all of them, sizes and times as on disk. */
export async function buildCatalogue(tracks: number): Promise<LibraryIndex> {
  const dir = folderFor(tracks);
  const artistsCount = Math.max(1, Math.round(tracks / 25));
  const bytes = await tinyMp3();
  const facts: FileFacts[] = [];
  const batch = 256;
  for (let start = 0; start < tracks; start += batch) {
    const shapes = Array.from({ length: Math.min(batch, tracks - start) }, (_, k) =>
      shapeOf(dir, start + k, artistsCount),
    );
    const infos = await Promise.all(
      shapes.map(async (s) => {
        const known = await stat(s.file).catch(() => null);
        if (known) return known;
        await mkdir(path.dirname(s.file), { recursive: true });
        await writeFile(s.file, bytes);
        return stat(s.file);
      }),
    );
    for (const { size, mtimeMs, dev, ino } of infos) facts.push({ size, mtimeMs, dev, ino, artwork: [] });
  }
  return catalogueOf(tracks, dir, (i) => facts[i]!);
}

// --------------------------------------------------------------------------------------- measuring

function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)]!;
}

/**
 * One read over a kept-alive connection (node:http, as the statistics part times its reads): fetch's
 * own work on a getArtists answer of megabytes showed in its p99 as the client's, not the
 * server's. The answer is parsed only when `json` is called, after the clock: parsing every
 * getArtists answer left this process garbage whose collection fell in the next read's clock. With
 * `gzip` the answer is asked gzipped and unpacked inside the clock (bench-timing.ts).
 */
async function timedGet(
  url: string,
  gzip = false,
): Promise<{ ms: number; json: () => unknown; wireBytes: number; encoding: string | undefined }> {
  const started = performance.now();
  const response = await request(url, { gzip });
  const ms = performance.now() - started;
  const { status, wireBytes, encoding } = response;
  if (status !== 200) throw new Error(`${url}: ${status} ${response.body.slice(0, 200)}`);
  return { ms, json: () => JSON.parse(response.body) as unknown, wireBytes, encoding };
}

/**
 * library.json loaded through the store, as the server does, in this process: how long, and how
 * many tracks. The library is let go at once: kept while the reads are timed, its 200,000 tracks
 * made this process's garbage collections long enough to show in their p99s.
 */
async function timeLibraryLoad(file: string): Promise<{ libraryLoadMs: number; libraryTracks: number }> {
  const started = performance.now();
  const repo = await LibraryRepo.open(file);
  return { libraryLoadMs: performance.now() - started, libraryTracks: repo.index().tracks.length };
}

type Figures = Record<string, number>;

async function oneRun(data: BenchData, tracks: number): Promise<Figures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'melon-bench-catalogue-'));
  try {
    // Kept as they were, as a restart finds them: the saved counting checks library.json's time.
    await cp(data.dataDir, dir, { recursive: true, preserveTimestamps: true });
    const { libraryLoadMs, libraryTracks } = await timeLibraryLoad(path.join(dir, 'library.json'));
    const libraryJsonMb = (await stat(path.join(dir, 'library.json'))).size / 2 ** 20;

    const server = await startServerProcess(dir, folderFor(tracks));
    try {
      const user = data.users[0]!;
      // As the statistics bench measures it: a sign-in, then the first statistics read.
      const firstStatsMs = await signInAndFirstStatsMs(server.url, user);
      await untilStarted(server.url);

      const auth = `u=${encodeURIComponent(user.username)}&p=enc:${Buffer.from(user.password).toString('hex')}&v=1.16.1&c=bench&f=json`;
      const rest = (method: string, query: string) => `${server.url}/rest/${method}?${auth}&${query}`;
      type Answer = { 'subsonic-response': Record<string, Record<string, unknown[] | undefined>> };

      const started = performance.now();
      let synced = 0;
      for (let offset = 0; ; offset += 500) {
        const read = await timedGet(
          rest('search3', `query=&artistCount=0&albumCount=0&songCount=500&songOffset=${offset}`),
        );
        const songs = (read.json() as Answer)['subsonic-response'].searchResult3?.song ?? [];
        synced += songs.length;
        if (songs.length < 500) break;
      }
      const subsonicFullSyncMs = performance.now() - started;
      console.error(`  synced ${synced} songs in ${Math.round(subsonicFullSyncMs)} ms; paging albums ...`);
      if (synced !== libraryTracks) throw new Error(`the sync saw ${synced} of ${libraryTracks} songs`);

      const albums = Math.ceil(tracks / 10);
      const albumSamples: number[] = [];
      for (let k = 0; k < 100; k++) {
        const type = k % 2 === 0 ? 'newest' : 'alphabeticalByName';
        // Every fifth page is one of the last: deep offsets are where a slow list shows.
        const offset = k % 5 === 0 ? Math.max(0, albums - 500 * (1 + (k % 3))) : (k * 7919) % albums;
        albumSamples.push(
          (await timedGet(rest('getAlbumList2', `type=${type}&size=500&offset=${offset}`))).ms,
        );
      }
      const artistSamples: number[] = [];
      let artistsBytes = 0;
      for (let k = 0; k < 40; k++) {
        const read = await timedGet(rest('getArtists', ''));
        artistSamples.push(read.ms);
        artistsBytes = read.wireBytes;
      }
      // As players ask (Accept-Encoding: gzip), unpacked inside the clock. Only gzipped answers
      // count: the first few may come uncompressed, before the server's gzipped copy is made.
      const artistGzipSamples: number[] = [];
      let artistsGzipBytes = 0;
      for (let k = 0; k < 40; k++) {
        const read = await timedGet(rest('getArtists', ''), true);
        if (read.encoding !== 'gzip') continue;
        artistGzipSamples.push(read.ms);
        artistsGzipBytes = read.wireBytes;
      }
      if (artistGzipSamples.length === 0) throw new Error('getArtists never came gzipped');
      const searchSamples: number[] = [];
      for (let k = 0; k < 100; k++) {
        const query =
          k % 2 === 0
            ? WORDS[k % WORDS.length]!
            : `${WORDS[k % WORDS.length]} ${WORDS[(k * 7) % WORDS.length]}`;
        searchSamples.push(
          (
            await timedGet(
              rest('search3', `query=${encodeURIComponent(query)}&artistCount=20&albumCount=20&songCount=20`),
            )
          ).ms,
        );
      }
      const rssMb = server.rssMb();
      // Where that memory is, read just after it: the V8 heap's reserved spaces (old: live objects
      // and garbage not yet collected; young: reserved at its largest after a burst of allocation)
      // and memory outside the heap (typed arrays' and buffers' bytes).
      const parts = await server.ask<MemoryNow>('memory');
      console.error(`  reads done (server RSS ${Math.round(rssMb)} MB); rescanning ${tracks} files ...`);
      const scan = await server.ask<{
        scanMs: number;
        status: { added: number; updated: number; removed: number };
      }>('scan');
      if (scan.status.added + scan.status.updated + scan.status.removed !== 0)
        throw new Error(`the unchanged rescan changed the library: ${JSON.stringify(scan.status)}`);
      return {
        libraryTracks,
        libraryJsonMb,
        rssMb,
        rssOldReservedMb: parts.oldReserved,
        rssOldUsedMb: parts.oldUsed,
        rssYoungReservedMb: parts.youngReserved,
        rssExternalMb: parts.external,
        rssAfterRescanMb: server.rssMb(),
        libraryLoadMs,
        listeningMs: server.startMs,
        coldStartMs: server.startMs + firstStatsMs,
        subsonicFullSyncMs,
        albumList2P99Ms: p99(albumSamples),
        artistsP99Ms: p99(artistSamples),
        artistsGzipP99Ms: p99(artistGzipSamples),
        artistsKb: artistsBytes / 1024,
        artistsGzipKb: artistsGzipBytes / 1024,
        searchP99Ms: p99(searchSamples),
        scanUnchangedMs: scan.scanMs,
      };
    } finally {
      closeRequests();
      await server.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function catalogueBench(tracks: number, plays: number, runs: number): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'melon-bench-catalogue-data-'));
  try {
    console.error(`building ${tracks} files and a data folder with ${plays} plays in ${dataDir} ...`);
    const built = performance.now();
    const data = runTsxScript<BenchData>(
      SELF,
      ['--build', dataDir, String(tracks), String(plays)],
      ['--max-old-space-size=4096'],
    );
    console.error(`built in ${((performance.now() - built) / 1000).toFixed(1)} s`);
    const all: Figures[] = [];
    for (let run = 1; run <= runs; run++) {
      const figures = await oneRun(data, tracks);
      all.push(figures);
      for (const [key, value] of Object.entries(figures))
        console.log(`  ${key.padEnd(20)} ${value.toFixed(1)}`);
      console.log(JSON.stringify({ run, ...round(figures) }));
    }
    const worst: Figures = {};
    for (const key of Object.keys(all[0]!)) worst[key] = Math.max(...all.map((f) => f[key]!));
    console.log(JSON.stringify({ runs, tracks, plays, ...round(worst) }));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

function round(figures: Figures): Figures {
  return Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v * 10) / 10]));
}

if (process.argv[1] === SELF && process.argv[2] === '--build') {
  const [dataDir, tracks, plays] = process.argv.slice(3);
  const library = await buildCatalogue(Number(tracks));
  console.log(JSON.stringify(await buildBenchData(dataDir!, Number(plays), library)));
}
