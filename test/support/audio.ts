import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { parseFile } from 'music-metadata';

const run = promisify(execFile);

/** sha256 of the decoded PCM samples: equal hashes mean the audio data is unchanged. */
export async function decodedAudioHash(path: string): Promise<string> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:a', '-f', 's16le', '-'], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return createHash('sha256').update(stdout).digest('hex');
}

export async function fileHash(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

/** The tags a picture edit must not touch, and the pictures themselves (as hashes). */
export async function tagsAndPictures(path: string) {
  const { common, format } = await parseFile(path);
  return {
    tags: {
      title: common.title,
      artists: common.artists,
      album: common.album,
      albumartist: common.albumartist,
      genre: common.genre,
      track: common.track,
      disk: common.disk,
      year: common.year,
    },
    tagTypes: format.tagTypes,
    pictures: (common.picture ?? []).map((p) => ({
      format: p.format,
      type: p.type,
      sha256: createHash('sha256').update(p.data).digest('hex'),
    })),
  };
}

/**
 * Writes `seconds` of a sine tone at 44.1 kHz with ffmpeg: stereo FLAC unless told otherwise, with
 * `tags` as its metadata.
 */
export async function writeTone(
  file: string,
  options: {
    seconds: number;
    frequency?: number;
    channels?: number;
    codec?: string;
    bitRate?: string;
    tags?: Record<string, string>;
  },
): Promise<void> {
  const { seconds, frequency = 440, channels = 2, codec = 'flac', bitRate, tags = {} } = options;
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=${frequency}:sample_rate=44100:duration=${seconds}`],
    ...['-ac', String(channels), '-c:a', codec, ...(bitRate ? ['-b:a', bitRate] : [])],
    ...Object.entries(tags).flatMap(([key, value]) => ['-metadata', `${key}=${value}`]),
    file,
  ]);
}

/** The length the container states, in seconds, as ffprobe reads it (`format=duration`). */
export async function statedDuration(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    file,
  ]);
  return Number(stdout.trim());
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * What a full decode of the file's first audio stream plays, in ms: ffmpeg decodes every packet to
 * mono 16-bit PCM at the stream's own rate and the samples are counted (containers' length claims and
 * ffprobe's `format=duration` estimates are not trusted).
 */
export async function decodedDurationMs(path: string): Promise<number> {
  const probe = await run('ffprobe', [
    ...['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=sample_rate'],
    ...['-of', 'csv=p=0', path],
  ]);
  const rate = Number(probe.stdout.trim());
  if (!(rate > 0)) throw new Error(`ffprobe found no audio stream in ${path}`);
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', path, '-map', '0:a:0', '-ac', '1', '-f', 's16le', '-'],
    {
      encoding: 'buffer',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  return (stdout.length / 2 / rate) * 1000;
}
