/**
 * Generates the real audio and image fixtures the library tests read, into test/fixtures/generated/
 * (gitignored). Run with `npx tsx scripts/make-fixtures.ts`, or call `ensureFixtures()` from a test.
 *
 * Idempotent: the output folder holds a stamp with the hash of this script's source; when it matches,
 * nothing is generated. Several vitest workers may call `ensureFixtures()` at once, so every run builds
 * into its own temp folder and renames it into place; the loser of that race uses the winner's folder.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { editTags, ffmpeg, pictureFromFile, PictureType, TagTypes } from './tagged-audio.js';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SCRIPT), '../test/fixtures/generated');
const STAMP = '.stamp';

export const FIXTURE_ALBUM_DIR = path.join('library', 'Aurora Lane', 'Fixture Album');
/** One file per format the scanner must accept, with lengths that defeat header-only parsing. */
export const FORMATS_DIR = 'formats';

interface AudioFormat {
  fmt: string;
  ext: string;
  /** Codec and container arguments for ffmpeg. */
  args: string[];
  rate: number;
  freq: number;
}

const FORMATS: AudioFormat[] = [
  {
    fmt: 'MP3',
    ext: 'mp3',
    args: ['-c:a', 'libmp3lame', '-b:a', '32k', '-id3v2_version', '3', '-write_id3v1', '0'],
    rate: 22050,
    freq: 330,
  },
  { fmt: 'FLAC', ext: 'flac', args: ['-c:a', 'flac'], rate: 22050, freq: 440 },
  { fmt: 'M4A', ext: 'm4a', args: ['-c:a', 'aac', '-b:a', '32k', '-f', 'ipod'], rate: 22050, freq: 550 },
  { fmt: 'OGG', ext: 'ogg', args: ['-c:a', 'libvorbis', '-q:a', '0'], rate: 22050, freq: 660 },
  { fmt: 'OPUS', ext: 'opus', args: ['-c:a', 'libopus', '-b:a', '24k'], rate: 48000, freq: 770 },
  { fmt: 'WAV', ext: 'wav', args: ['-c:a', 'pcm_s16le'], rate: 22050, freq: 880 },
];

/** Tag values shared by every file of the fixture album (tests of other modules rely on them). */
const ALBUM_TAGS = {
  artist: 'Aurora Lane feat. The Static',
  album_artist: 'Aurora Lane',
  album: 'Fixture Album',
  genre: 'Synthpop; Ambient',
  disc: '1',
  date: '2021',
};

/** The fixtures change when this script or the module that tags them does. */
async function sourceHash(): Promise<string> {
  return createHash('sha256')
    .update(await readFile(SCRIPT))
    .update(await readFile(path.join(path.dirname(SCRIPT), 'tagged-audio.ts')))
    .digest('hex');
}

async function stampMatches(dir: string, hash: string): Promise<boolean> {
  try {
    return (await readFile(path.join(dir, STAMP), 'utf8')).trim() === hash;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------- images

/**
 * A 40x40 solid green lossless WebP (VP8L) written bit by bit: used only when this ffmpeg has no WebP
 * encoder. Every prefix code is a "simple" one-symbol code, so each pixel takes zero bits.
 */
export function handMadeWebp(width = 40, height = 40): Buffer {
  const bits: number[] = [];
  const put = (value: number, n: number): void => {
    for (let i = 0; i < n; i++) bits.push((value >> i) & 1);
  };
  put(width - 1, 14);
  put(height - 1, 14);
  put(0, 1); // alpha hint
  put(0, 3); // version
  put(0, 1); // no transform
  put(0, 1); // no colour cache
  put(0, 1); // no meta prefix codes
  // green, red, blue, alpha, distance: simple code, one symbol, 8-bit symbol value.
  for (const symbol of [255, 0, 0, 255, 0]) {
    put(1, 1);
    put(0, 1);
    put(1, 1);
    put(symbol, 8);
  }
  const data = Buffer.alloc(1 + Math.ceil(bits.length / 8));
  data[0] = 0x2f;
  bits.forEach((bit, i) => {
    data[1 + (i >> 3)]! |= bit << (i & 7);
  });
  const chunk = Buffer.concat([Buffer.from('VP8L'), u32le(data.length), data, Buffer.alloc(data.length & 1)]);
  return Buffer.concat([Buffer.from('RIFF'), u32le(4 + chunk.length), Buffer.from('WEBP'), chunk]);
}

function u32le(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

async function makeImages(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const still = (color: string, out: string, extra: string[] = []): Promise<void> =>
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `color=c=${color}`,
      '-frames:v',
      '1',
      '-fflags',
      '+bitexact',
      ...extra,
      out,
    ]);
  await still('red:s=64x64', path.join(dir, 'cover.png'));
  // Full-range 4:2:0 is what the MJPEG encoder accepts without a strictness override.
  await still('blue:s=48x32', path.join(dir, 'back.jpg'), ['-pix_fmt', 'yuvj420p']);
  const webp = path.join(dir, 'photo.webp');
  try {
    await still('green:s=40x40', webp, ['-c:v', 'libwebp']);
  } catch {
    await writeFile(webp, handMadeWebp());
  }
  await writeFile(path.join(dir, 'not-an-image.png'), 'this is not an image');
}

// ----------------------------------------------------------------------------------------------- audio

function sineInput(freq: number, rate: number): string[] {
  return ['-f', 'lavfi', '-i', `sine=frequency=${freq}:sample_rate=${rate}:duration=2`, '-ac', '1'];
}

async function makeTaggedTrack(dir: string, f: AudioFormat, n: number, images: string): Promise<void> {
  const file = path.join(dir, `0${n} - Tone ${f.fmt}.${f.ext}`);
  const tags = { ...ALBUM_TAGS, title: `Tone ${f.fmt}`, track: `${n}/${FORMATS.length}` };
  const meta = Object.entries(tags).flatMap(([k, v]) => ['-metadata', `${k}=${v}`]);
  // +bitexact keeps encoder version strings out of the files, so the output is reproducible.
  await ffmpeg([...sineInput(f.freq, f.rate), '-fflags', '+bitexact', ...meta, ...f.args, file]);
  if (f.ext === 'wav') addWavId3(file, tags.title, n);
  else await embedPictures(file, images);
}

/**
 * RIFF INFO (what ffmpeg writes into WAV) has no album artist or disc number, so the WAV also gets an
 * ID3v2 chunk carrying the full tag set, like the other formats.
 */
function addWavId3(file: string, title: string, n: number): void {
  editTags(file, (tagged) => {
    const id3 = tagged.getTag(TagTypes.Id3v2, true);
    id3.title = title;
    id3.performers = [ALBUM_TAGS.artist];
    id3.albumArtists = [ALBUM_TAGS.album_artist];
    id3.album = ALBUM_TAGS.album;
    id3.genres = [ALBUM_TAGS.genre];
    id3.track = n;
    id3.trackCount = FORMATS.length;
    id3.disc = 1;
    id3.year = 2021;
  });
}

/**
 * Pictures go in with node-taglib-sharp for every format: ffmpeg cannot attach them to Ogg at all, and
 * one tool for all formats keeps the order (front cover, then back cover) identical everywhere.
 */
async function embedPictures(file: string, images: string): Promise<void> {
  const pictures = [
    await pictureFromFile(path.join(images, 'cover.png'), 'image/png', PictureType.FrontCover, 'Front'),
    await pictureFromFile(path.join(images, 'back.jpg'), 'image/jpeg', PictureType.BackCover, 'Back'),
  ];
  editTags(file, (tagged) => {
    tagged.tag.pictures = pictures;
  });
}

async function makeUntagged(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await ffmpeg([
    ...sineInput(500, 22050),
    ...['-fflags', '+bitexact', '-map_metadata', '-1', '-c:a', 'libmp3lame', '-b:a', '32k'],
    ...['-id3v2_version', '0', '-write_id3v1', '0', path.join(dir, 'Lonely Song.mp3')],
  ]);
}

/** Deterministic pseudo-random bytes (a sha256 chain), so the "corrupt" file is the same on every run. */
function pseudoRandom(size: number, seed: string): Buffer {
  const out: Buffer[] = [];
  let block = createHash('sha256').update(seed).digest();
  for (let n = 0; n < size; n += block.length) {
    out.push(block);
    block = createHash('sha256').update(block).digest();
  }
  return Buffer.concat(out).subarray(0, size);
}

async function makeBroken(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'corrupt.mp3'), pseudoRandom(4096, 'melon corrupt fixture'));
  await writeFile(path.join(dir, 'readme.txt'), 'Not music: the scanner must ignore this file.\n');
}

/**
 * A file per accepted format, in its own folder so the fixture album stays as the other tests know it.
 * The Ogg and raw AAC files span many pages/frames (music-metadata stops reading them early unless
 * told otherwise), and the MP3s cover every way of knowing a length: a Xing/Info header, a VBR
 * stream with one, and CBR and VBR streams without one (only counting frames gives their length).
 */
export const FORMAT_FIXTURES: Array<{ file: string; format: string; args: string[]; seconds: number }> = [
  { file: 'vorbis-long.ogg', format: 'ogg', seconds: 65, args: ['-c:a', 'libvorbis', '-q:a', '0'] },
  {
    file: 'opus-long.opus',
    format: 'opus',
    seconds: 65,
    args: ['-ar', '48000', '-c:a', 'libopus', '-b:a', '8k'],
  },
  { file: 'flac.flac', format: 'flac', seconds: 4, args: ['-c:a', 'flac'] },
  { file: 'mp3-cbr.mp3', format: 'mp3', seconds: 30, args: ['-c:a', 'libmp3lame', '-b:a', '32k'] },
  { file: 'mp3-vbr.mp3', format: 'mp3', seconds: 30, args: ['-c:a', 'libmp3lame', '-q:a', '9'] },
  {
    file: 'mp3-cbr-no-xing.mp3',
    format: 'mp3',
    seconds: 60,
    args: ['-c:a', 'libmp3lame', '-b:a', '32k', '-write_xing', '0'],
  },
  {
    file: 'mp3-vbr-no-xing.mp3',
    format: 'mp3',
    seconds: 60,
    args: ['-c:a', 'libmp3lame', '-q:a', '9', '-write_xing', '0'],
  },
  { file: 'aac.m4a', format: 'm4a', seconds: 20, args: ['-c:a', 'aac', '-b:a', '24k', '-f', 'ipod'] },
  { file: 'adts-long.aac', format: 'aac', seconds: 60, args: ['-c:a', 'aac', '-b:a', '16k', '-f', 'adts'] },
  { file: 'alac.m4a', format: 'm4a', seconds: 3, args: ['-c:a', 'alac', '-f', 'ipod'] },
  {
    file: 'wav-utf8-info.wav',
    format: 'wav',
    seconds: 3,
    // ffmpeg's WAV muxer writes these as RIFF INFO in UTF-8 (INFO has no encoding field).
    args: [
      '-c:a',
      'pcm_s16le',
      '-metadata',
      'title=Mädchen',
      '-metadata',
      'artist=Bär',
      '-metadata',
      'album=Grüße',
    ],
  },
  { file: 'aiff.aiff', format: 'aiff', seconds: 3, args: ['-c:a', 'pcm_s16be'] },
  { file: 'wma.wma', format: 'wma', seconds: 20, args: ['-c:a', 'wmav2', '-b:a', '32k'] },
];

async function makeFormats(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const input = (seconds: number) => [
    ...['-f', 'lavfi', '-i', `sine=frequency=523:sample_rate=22050:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `anoisesrc=amplitude=0.05:sample_rate=22050:duration=${seconds}:seed=7`],
    ...['-filter_complex', 'amix=inputs=2:duration=shortest', '-ac', '1'],
  ];
  // Two at a time: ffmpeg is single-threaded for these and the machine may have two cores.
  const queue = [...FORMAT_FIXTURES];
  const worker = async (): Promise<void> => {
    for (let f = queue.shift(); f; f = queue.shift())
      await ffmpeg([...input(f.seconds), '-fflags', '+bitexact', ...f.args, path.join(dir, f.file)]);
  };
  await Promise.all([worker(), worker()]);
}

async function generate(dir: string, hash: string): Promise<void> {
  const images = path.join(dir, 'images');
  await makeImages(images);
  const album = path.join(dir, FIXTURE_ALBUM_DIR);
  await mkdir(album, { recursive: true });
  // Sequential on purpose: taglib-sharp settings are global, and ffmpeg is quick for 2-second files.
  for (const [i, f] of FORMATS.entries()) await makeTaggedTrack(album, f, i + 1, images);
  await makeUntagged(path.join(dir, 'library', 'untagged', 'Lonely Folder'));
  await makeBroken(path.join(dir, 'library', 'broken'));
  await makeFormats(path.join(dir, FORMATS_DIR));
  await writeFile(path.join(dir, STAMP), `${hash}\n`);
}

// -------------------------------------------------------------------------------------- entry points

/** Moves `fresh` to `ROOT`, replacing a stale folder; losing the race to an identical build is fine. */
async function publish(fresh: string, hash: string): Promise<void> {
  if (!(await stampMatches(ROOT, hash))) {
    // Move a stale folder aside first: rename cannot replace a non-empty directory.
    const stale = `${ROOT}.stale-${randomBytes(6).toString('hex')}`;
    await rename(ROOT, stale).then(
      () => rm(stale, { recursive: true, force: true }),
      () => undefined, // already gone (never generated, or another process moved it)
    );
  }
  try {
    await rename(fresh, ROOT);
  } catch (err) {
    // Lost the race: fine when the winner produced the same fixtures.
    if (!(await stampMatches(ROOT, hash))) throw err;
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
}

async function build(): Promise<string> {
  const hash = await sourceHash();
  if (await stampMatches(ROOT, hash)) return ROOT;
  await mkdir(path.dirname(ROOT), { recursive: true });
  const fresh = `${ROOT}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    await generate(fresh, hash);
  } catch (err) {
    await rm(fresh, { recursive: true, force: true });
    throw err;
  }
  await publish(fresh, hash);
  return ROOT;
}

let pending: Promise<string> | undefined;

/** Makes sure the fixtures exist and are current; returns the folder that holds them. */
export function ensureFixtures(): Promise<string> {
  pending ??= build().catch((err: unknown) => {
    pending = undefined; // let a later call retry
    throw err;
  });
  return pending;
}

if (process.argv[1] && path.resolve(process.argv[1]) === SCRIPT) {
  ensureFixtures().then(
    (root) => console.log(`fixtures ready in ${root}`),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
