/**
 * Each audio file below a folder read the way a scan reads it (tags, pictures, exact length, with
 * V8 set as while a scan reads files: scan-reading.ts), in a process of its own that runs the built
 * server code as `npm start` does (transpiled beside server-process.ts into dist-bench/, so it
 * imports only the server). Every file is read over and over until the code is compiled and warm
 * (a pass no cheaper than the one before), then again with its CPU time measured:
 * what a file costs once a scan is under way, without the fixed cost of its first files.
 *
 *   node dist-bench/scripts/bench-scan-reads.js FOLDER   (started by bench-scan-peer.ts)
 *
 * Prints one JSON line: the CPU ms a file, by the name of the folder each file is in (the bench's
 * variants), and over all files.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findAudioFiles } from '../server/library/folder-walk.js';
import { PATIENCE, whileReadingFiles } from '../server/library/scan-reading.js';
import { readTrackFile } from '../server/library/tags.js';
import { openTrackFile, realMusicFolders } from '../server/library/track-file.js';

export interface WarmReads {
  /** The mean CPU ms of a file's reading, by the folder it is in. */
  byFolder: Record<string, number>;
  /** The mean over all files. */
  all: number;
}

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function warmReads(folder: string): Promise<WarmReads> {
  const { files } = await findAudioFiles([folder]);
  const roots = await realMusicFolders([folder]);
  const readOne = async (file: string): Promise<void> => {
    const opened = await openTrackFile(file, roots, null);
    try {
      await readTrackFile(opened);
    } finally {
      await opened.handle.close();
    }
  };
  // While files are read the compiler waits PATIENCE times longer than V8's usual (scan-reading.ts),
  // so two passes may leave code still to optimize: passes go on until one costs no less than the
  // one before it (at most a pass per unit of patience), and only then is a pass measured.
  let last = Infinity;
  for (let pass = 0; pass < 2 * PATIENCE; pass++) {
    const before = cpuMs();
    for (const { path: file } of files) await readOne(file);
    const spent = cpuMs() - before;
    if (pass > 0 && spent >= last * 0.98) break;
    last = Math.min(last, spent);
  }
  const times = new Map<string, number[]>();
  let total = 0;
  for (const { path: file } of files) {
    const before = cpuMs();
    await readOne(file);
    const spent = cpuMs() - before;
    total += spent;
    const name = path.basename(path.dirname(file));
    times.set(name, [...(times.get(name) ?? []), spent]);
  }
  const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
  return {
    byFolder: Object.fromEntries([...times].map(([name, list]) => [name, mean(list)])),
    all: total / files.length,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const folder = process.argv[2];
  if (!folder) {
    console.error('usage: node dist-bench/scripts/bench-scan-reads.js FOLDER');
    process.exit(2);
  }
  console.log(JSON.stringify(await whileReadingFiles(() => warmReads(folder))));
}
