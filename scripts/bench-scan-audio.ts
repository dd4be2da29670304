/**
 * The scan bench's audio: real files in six formats made with ffmpeg and tagged with
 * node-taglib-sharp in bench-data/scan-audio/ (gitignored, reused by the next run), and the edits
 * the bench makes to them between scans.
 */
import { copyFile, mkdir, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { editTags, ffmpeg, pictureFromFile, type Picture } from './tagged-audio.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the generated files live; the scan bench's server scans this folder. */
export const AUDIO = path.join(ROOT, 'bench-data', 'scan-audio');

/** Formats and their share of the generated library (roughly a household's mix). */
const FORMATS = [
  { ext: 'mp3', share: 40, args: ['-c:a', 'libmp3lame', '-b:a', '64k'] },
  { ext: 'flac', share: 15, args: ['-c:a', 'flac'] },
  { ext: 'm4a', share: 20, args: ['-c:a', 'aac', '-b:a', '48k', '-f', 'ipod'] },
  { ext: 'ogg', share: 10, args: ['-c:a', 'libvorbis', '-q:a', '0'] },
  { ext: 'opus', share: 10, args: ['-c:a', 'libopus', '-b:a', '24k'] },
  { ext: 'wav', share: 5, args: ['-c:a', 'pcm_s16le'] },
] as const;
export const GENRES = ['Rock', 'Jazz', 'Ambient', 'Folk', 'Hip-Hop', 'Classical', 'Synthpop', 'Blues'];

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
  editTags(file, (tagged) => {
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
  });
}

/** Makes the first `count` bench files that are not there yet; returns how many it made. */
export async function ensureAudio(count: number): Promise<number> {
  const sourcesDir = path.join(AUDIO, '.sources');
  const existing = new Set(await listFiles(AUDIO));
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !existing.has(fileOf(i).path));
  if (missing.length === 0) return 0;
  const sources = await makeSources(sourcesDir);
  const cover = await pictureFromFile(path.join(sourcesDir, 'cover.jpg'), 'image/jpeg');
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
export async function changeOnePercent(files: number, round: number): Promise<number> {
  const sourcesDir = path.join(AUDIO, '.sources');
  const cover = await pictureFromFile(path.join(sourcesDir, 'cover.jpg'), 'image/jpeg');
  const count = Math.max(1, Math.round(files / 100));
  for (let k = 0; k < count; k++)
    tagFile(fileOf(Math.floor((k * files) / count)).path, k, cover, ` (edit ${round})`);
  return count;
}

/** Moves bench files numbered `files` and above into a parked folder the scan does not see. */
export async function trimTo(files: number): Promise<void> {
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
