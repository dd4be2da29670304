/**
 * History import bench: imports a ListenBrainz export of N listens (default 1,000,000,
 * JSON lines, ~206 MB) into the real server running in its own process, and watches that process's
 * resident memory while the import runs. The upload is streamed from disk, the server streams it to
 * a temp file and parses it as a stream, so the memory it keeps is the stats index's growth (16
 * bytes a play), the de-duplication keys (~11 bytes a listen) and the track matcher, not the file.
 *
 *   npm run bench:import -- [--listens N] [--again] [--zip]
 *
 * `--again` imports the same file a second time (everything a duplicate). `--zip` uploads the
 * listens as ListenBrainz's export ZIP lays them out (`listens/<year>/<month>.jsonl`, deflated). Prints a table, then as its
 * last line one JSON object with the figures.
 */
import { createReadStream, createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { once } from 'node:events';
import yazl from 'yazl';
import { argValue, benchLibrary, buildBenchDataInChild, login, random } from './bench-data.js';
import { startServerProcess, type Measures, type MemoryNow, type ServerProcess } from './server-process.js';

interface Progress {
  done: boolean;
  status: string;
  entriesRead: number;
  matched: number;
  unmatched: number;
  duplicates: number;
  refused: number;
}

/** N listens of the bench library's tracks, one every ~2 minutes back from now, newest first (as ListenBrainz exports). */
async function writeExport(path: string, listens: number): Promise<void> {
  const library = benchLibrary();
  const artistName = new Map(library.artists.map((a) => [a.id, a.name]));
  const albumName = new Map(library.albums.map((a) => [a.id, a.name]));
  const rnd = random(17);
  const out = createWriteStream(path);
  let at = Math.floor(Date.now() / 1000) - 3600;
  let chunk = '';
  for (let i = 0; i < listens; i += 1) {
    const track = library.tracks[Math.floor(rnd() * library.tracks.length)]!;
    at -= 60 + Math.floor(rnd() * 120);
    chunk +=
      JSON.stringify({
        listened_at: at,
        track_metadata: {
          artist_name: artistName.get(track.artistIds[0]!) ?? '',
          track_name: track.name,
          release_name: track.albumId ? albumName.get(track.albumId) : undefined,
          additional_info: { media_player: 'Pano Scrobbler', submission_client: 'Pano Scrobbler' },
        },
      }) + '\n';
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/**
 * The JSON lines file as ListenBrainz's export ZIP: one entry a month (`listens/2024/3.jsonl`),
 * the months as they come in the file (newest first).
 */
async function writeExportZip(jsonl: string, path: string): Promise<void> {
  const zip = new yazl.ZipFile();
  const done = once(zip.outputStream.pipe(createWriteStream(path)), 'finish');
  zip.addBuffer(Buffer.from('{"user_id": 1, "username": "bench"}'), 'user.json');
  let month = '';
  let lines: string[] = [];
  const flush = () => {
    if (lines.length) zip.addBuffer(Buffer.from(lines.join('')), `listens/${month}.jsonl`);
    lines = [];
  };
  for await (const line of createInterface({ input: createReadStream(jsonl) })) {
    const at = new Date((JSON.parse(line) as { listened_at: number }).listened_at * 1000);
    const key = `${at.getUTCFullYear()}/${at.getUTCMonth() + 1}`;
    if (key !== month) {
      flush();
      month = key;
    }
    lines.push(line + '\n');
  }
  flush();
  zip.end();
  await done;
}

/** `trace`: every sample of the server's memory is pushed to it (`--trace-memory FILE`). */
async function runImport(server: ServerProcess, token: string, file: string, trace?: object[]) {
  const form = new FormData();
  const zip = file.endsWith('.zip');
  if (!zip) form.set('source', 'listenbrainz');
  form.set('file', await openAsBlob(file), zip ? 'export.zip' : 'listens.jsonl');
  const measuredBefore = await server.ask<Measures>('measures');
  const usedBefore = measuredBefore.usedBytes;
  const memoryBefore = await server.ask<MemoryNow>('memory');
  const rssBefore = server.rssMb();
  let peak = rssBefore;
  // The highest RSS while the file is uploaded, then while it is read, with where the memory was.
  let uploading = true;
  let uploadPeak = rssBefore;
  let atPeak: MemoryNow | undefined;
  let asking = false;
  const sampler = setInterval(() => {
    // One question at a time: a server busy importing may answer later than the next tick.
    if (asking) return;
    asking = true;
    void server.ask<MemoryNow>('memory').then((now) => {
      asking = false;
      trace?.push({ s: Math.round(performance.now() - start) / 1000, uploading, ...now });
      if (uploading) uploadPeak = Math.max(uploadPeak, now.rss);
      if (now.rss > peak) [peak, atPeak] = [now.rss, now];
    });
  }, 100);
  const start = performance.now();
  try {
    const response = await fetch(`${server.url}/api/stats/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (response.status !== 202) throw new Error(`import: ${response.status} ${await response.text()}`);
    const uploadMs = performance.now() - start;
    uploading = false;
    const { id } = (await response.json()) as { id: string };
    let progress: Progress;
    for (;;) {
      const status = await fetch(`${server.url}/api/stats/import/${id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      progress = (await status.json()) as Progress;
      if (progress.done) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const totalMs = performance.now() - start;
    peak = Math.max(peak, server.rssMb());
    const rssAfter = server.rssMb();
    // Live memory after full collections: what the import added and keeps, its garbage left out.
    const measuredAfter = await server.ask<Measures>('measures');
    const usedGrowthMb = (measuredAfter.usedBytes - usedBefore) / 2 ** 20;
    const externalGrowthMb = (measuredAfter.externalBytes - measuredBefore.externalBytes) / 2 ** 20;
    return {
      progress,
      uploadMs,
      totalMs,
      rssBefore,
      rssPeak: peak,
      rssAfter,
      usedGrowthMb,
      uploadPeak,
      atPeak,
      memoryBefore,
      externalGrowthMb,
    };
  } finally {
    clearInterval(sampler);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const listens = Number(argValue(args, '--listens') ?? 1_000_000);
  const dir = await mkdtemp(join(tmpdir(), 'melon-import-bench-'));
  try {
    console.error('building a data folder (library, users, no plays) ...');
    const data = buildBenchDataInChild(join(dir, 'data'), 0);
    const jsonl = join(dir, 'listens.jsonl');
    console.error(`writing a ListenBrainz export of ${listens} listens ...`);
    await writeExport(jsonl, listens);
    const file = args.includes('--zip') ? join(dir, 'export.zip') : jsonl;
    if (file !== jsonl) await writeExportZip(jsonl, file);
    const fileMb = (await stat(file)).size / 1024 / 1024;
    const server = await startServerProcess(data.dataDir);
    try {
      const user = data.users[0]!;
      const token = await login(server.url, user.username, user.password);
      console.error('importing ...');
      const traceFile = argValue(args, '--trace-memory');
      const trace: object[] | undefined = traceFile ? [] : undefined;
      const first = await runImport(server, token, file, trace);
      if (traceFile && trace)
        await writeFile(traceFile, trace.map((t) => JSON.stringify(t)).join('\n') + '\n');
      const again = args.includes('--again') ? await runImport(server, token, file) : null;
      const growth = first.rssPeak - first.rssBefore;
      const rows: Array<[string, string]> = [
        ['listens in the file', String(listens)],
        ['form', file === jsonl ? 'JSON lines' : 'export ZIP'],
        ['file size (MB)', fileMb.toFixed(1)],
        ['import status', first.progress.status],
        [
          'matched / unmatched / duplicates / refused',
          `${first.progress.matched} / ${first.progress.unmatched} / ${first.progress.duplicates} / ${first.progress.refused}`,
        ],
        ['upload (s)', (first.uploadMs / 1000).toFixed(1)],
        ['upload + import (s)', (first.totalMs / 1000).toFixed(1)],
        ['listens per second', Math.round(listens / (first.totalMs / 1000)).toString()],
        ['server RSS before (MB)', first.rssBefore.toFixed(1)],
        ['server RSS peak (MB)', first.rssPeak.toFixed(1)],
        ['server RSS growth at peak (MB)', growth.toFixed(1)],
        ['server RSS when done (MB)', first.rssAfter.toFixed(1)],
        ['live memory added (MB, after full GCs)', first.usedGrowthMb.toFixed(1)],
        ['RSS growth at peak while uploading (MB)', (first.uploadPeak - first.rssBefore).toFixed(1)],
      ];
      const at = first.atPeak;
      const was = first.memoryBefore;
      rows.push([
        'before: old generation, reserved / used (MB)',
        `${was.oldReserved.toFixed(1)} / ${was.oldUsed.toFixed(1)}`,
      ]);
      rows.push(['before: typed arrays and buffers (MB)', was.external.toFixed(1)]);
      rows.push(['before: young generation reserved (MB)', was.youngReserved.toFixed(1)]);
      rows.push([
        'of the live memory added, typed arrays and buffers (MB)',
        first.externalGrowthMb.toFixed(1),
      ]);
      if (at) {
        rows.push([
          'at the peak: old generation, reserved / used (MB)',
          `${at.oldReserved.toFixed(1)} / ${at.oldUsed.toFixed(1)}`,
        ]);
        rows.push(['at the peak: young generation reserved (MB)', at.youngReserved.toFixed(1)]);
        rows.push(['at the peak: typed arrays and buffers (MB)', at.external.toFixed(1)]);
      }
      if (again) {
        rows.push(['re-import: duplicates', String(again.progress.duplicates)]);
        rows.push(['re-import: matched (added)', String(again.progress.matched)]);
        rows.push(['re-import (s)', (again.totalMs / 1000).toFixed(1)]);
        rows.push(['re-import RSS growth at peak (MB)', (again.rssPeak - again.rssBefore).toFixed(1)]);
        rows.push(['re-import RSS when done (MB)', again.rssAfter.toFixed(1)]);
      }
      console.log(`\nMelon history import bench\n`);
      for (const [name, value] of rows) console.log(`${name.padEnd(44)}${value.padStart(24)}`);
      const round = (n: number) => Math.round(n * 10) / 10;
      console.log(
        '\n' +
          JSON.stringify({
            listens,
            zip: file !== jsonl,
            fileMb: round(fileMb),
            matched: first.progress.matched,
            importSeconds: round(first.totalMs / 1000),
            rssBeforeMb: round(first.rssBefore),
            rssPeakMb: round(first.rssPeak),
            rssGrowthMb: round(growth),
            rssAfterMb: round(first.rssAfter),
            usedGrowthMb: round(first.usedGrowthMb),
            uploadRssGrowthMb: round(first.uploadPeak - first.rssBefore),
            ...(at && {
              peakOldReservedMb: round(at.oldReserved),
              peakOldUsedMb: round(at.oldUsed),
              peakYoungReservedMb: round(at.youngReserved),
              peakExternalMb: round(at.external),
            }),
            ...(again && {
              reimportAdded: again.progress.matched,
              reimportDuplicates: again.progress.duplicates,
              reimportSeconds: round(again.totalMs / 1000),
              reimportRssGrowthMb: round(again.rssPeak - again.rssBefore),
            }),
          }),
      );
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
