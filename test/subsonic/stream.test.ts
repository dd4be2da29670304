import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SubsonicAPI } from 'subsonic-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { statedDuration } from '../support/audio.js';
import { addLongTone, useFixtureLibraryCopy } from '../support/fixture-library.js';
import { useTestServer } from '../support/server.js';
import { apiKeyFor, checkingFetch, failsWith, restUrl } from './support.js';
import { ffmpegChildren, waitFor } from '../support/ffmpeg-children.js';

const run = promisify(execFile);

/**
 * stream and download through the Subsonic API, driven by the subsonic-api client: the native
 * streaming service's bytes (originals whole and ranged, transcodes that ffprobe reads as asked),
 * and no encoder left behind by a client that goes away.
 */
const LONG_SECONDS = 120;
const fixture = useFixtureLibraryCopy('melon-subsonic-stream-');
const t = useTestServer(async () => {
  await addLongTone(fixture.library, LONG_SECONDS);
  return { config: { libraryDirs: [fixture.library] } };
});
let listener: TestUser;
let me: { username: string; password: string };
let apiKey: string;
let client: SubsonicAPI;
const ids: Record<string, string> = {};

beforeAll(async () => {
  listener = await makeUser(t);
  me = { username: listener.username, password: listener.password };
  apiKey = await apiKeyFor(t, listener.token);
  client = new SubsonicAPI({ url: t.url, auth: { apiKey } });
  const { searchResult3 } = await client.search3({ query: '', songCount: 100 });
  for (const song of searchResult3.song ?? []) ids[song.title] = song.id;
});

const fileOf = (...parts: string[]) => readFile(join(fixture.library, ...parts));
const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

/** A client whose requests carry one more header (the package has no option for a Range). */
function clientWith(headers: Record<string, string>): SubsonicAPI {
  return new SubsonicAPI({
    url: t.url,
    auth: { apiKey },
    fetch: checkingFetch({ twin: () => false, headers }),
  });
}

async function ffprobe(file: string): Promise<{ format: string; bitRate: number }> {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-select_streams', 'a:0', '-count_packets'],
    ...['-show_entries', 'stream=bit_rate:format=format_name,bit_rate', '-of', 'json', file],
  ]);
  const info = JSON.parse(stdout) as {
    streams: Array<{ bit_rate?: string }>;
    format: { format_name: string; bit_rate?: string };
  };
  return {
    format: info.format.format_name,
    bitRate: Number(info.streams[0]?.bit_rate ?? info.format.bit_rate),
  };
}

describe('Subsonic stream and download', () => {
  it('streams the whole original, byte for byte', async () => {
    const response = await client.stream({ id: ids['Tone FLAC']! });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/flac');
    expect(await bytes(response)).toEqual(
      await fileOf('Aurora Lane', 'Fixture Album', '02 - Tone FLAC.flac'),
    );
  });

  it('streams a byte range of the original', async () => {
    const whole = await fileOf('Aurora Lane', 'Fixture Album', '01 - Tone MP3.mp3');
    const response = await clientWith({ Range: 'bytes=100-1123' }).stream({ id: ids['Tone MP3']! });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 100-1123/${whole.length}`);
    expect(await bytes(response)).toEqual(whole.subarray(100, 1124));
  });

  it('sends the original for format=raw, even with a bit-rate limit', async () => {
    const response = await client.stream({ id: ids['Tone FLAC']!, format: 'raw', maxBitRate: 64 });
    expect(await bytes(response)).toEqual(
      await fileOf('Aurora Lane', 'Fixture Album', '02 - Tone FLAC.flac'),
    );
  });

  it.each([
    ['mp3', 64, 'mp3'],
    ['ogg', 48, 'ogg'],
  ] as const)(
    'transcodes to %s at %i kbps or less, as ffprobe reads it',
    async (format, kbps, container) => {
      const response = await client.stream({ id: ids['Long Tone']!, format, maxBitRate: kbps });
      expect(response.status).toBe(200);
      const file = join(tmpdir(), `melon-subsonic-${format}-${process.pid}.${format}`);
      await writeFile(file, await bytes(response));
      try {
        const probed = await ffprobe(file);
        expect(probed.format).toBe(container);
        expect(probed.bitRate).toBeLessThanOrEqual(kbps * 1000);
        expect(probed.bitRate).toBeGreaterThan(kbps * 1000 * 0.7);
      } finally {
        await rm(file, { force: true });
      }
    },
    60_000,
  );

  it('starts a transcode at timeOffset seconds, and refuses an offset past the end', async () => {
    const response = await client.stream({ id: ids['Long Tone']!, format: 'mp3', timeOffset: 100 });
    expect(response.status).toBe(200);
    const file = join(tmpdir(), `melon-subsonic-offset-${process.pid}.mp3`);
    await writeFile(file, await bytes(response));
    try {
      expect(await statedDuration(file)).toBeCloseTo(LONG_SECONDS - 100, 0);
    } finally {
      await rm(file, { force: true });
    }
    await failsWith(t, me, 'stream', { id: ids['Long Tone']!, format: 'mp3', timeOffset: '121' }, 0);
    await failsWith(t, me, 'stream', { id: ids['Long Tone']!, format: 'mp3', timeOffset: 'soon' }, 0);
  }, 60_000);

  it('leaves no ffmpeg running when the client goes away mid-transcode', async () => {
    expect(await ffmpegChildren()).toEqual([]);
    const url = restUrl(t, 'stream', {
      u: me.username,
      p: me.password,
      id: ids['Long Tone']!,
      format: 'mp3',
      maxBitRate: '128',
    });
    const abort = await new Promise<() => void>((resolve, reject) => {
      const req = httpRequest(url, (res) => {
        res.once('data', () => {
          res.pause();
          resolve(() => req.destroy());
        });
      });
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
      req.end();
    });
    expect(await ffmpegChildren()).toHaveLength(1);
    abort();
    expect(await waitFor(async () => (await ffmpegChildren()).length === 0, 2_000)).toBe(true);
    expect(t.server.services.stream.activeTranscodes).toBe(0);
  }, 30_000);

  it('answers HEAD with the headers only, starting no encoder', async () => {
    const original = await fetch(restUrl(t, 'stream', { apiKey, id: ids['Tone FLAC']! }), { method: 'HEAD' });
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('audio/flac');
    const transcode = await fetch(restUrl(t, 'stream', { apiKey, id: ids['Long Tone']!, format: 'mp3' }), {
      method: 'HEAD',
    });
    expect(transcode.headers.get('content-type')).toBe('audio/mpeg');
    expect(await ffmpegChildren()).toEqual([]);
  });

  it('downloads the original with its file name', async () => {
    const response = await client.download({ id: ids['Tone OGG']! });
    expect(response.headers.get('content-disposition')).toContain('04 - Tone OGG.ogg');
    expect(await bytes(response)).toEqual(await fileOf('Aurora Lane', 'Fixture Album', '04 - Tone OGG.ogg'));
  });

  it('answers a Subsonic error for an unknown track, in XML and JSON', async () => {
    await failsWith(t, me, 'stream', { id: 'nope' }, 70);
    await failsWith(t, me, 'download', { id: 'nope' }, 70);
  });
});
