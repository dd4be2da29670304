import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Track as TrackView } from '../../server/contract/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { sha256 } from '../support/audio.js';
import { addLongTone, useFixtureLibraryCopy } from '../support/fixture-library.js';
import { problem, startTestServer, useTestServer } from '../support/server.js';
import { ffmpegChildren, waitFor } from '../support/ffmpeg-children.js';

/**
 * Streaming over real HTTP (docs/API.md, Streaming): originals with ranges and validators, transcodes
 * by the real ffmpeg checked with ffprobe, the limit on encoders, and no encoder outliving its client.
 */
const run = promisify(execFile);

/** A track as an Admin reads it: with its file. */
type Track = TrackView & Required<Pick<TrackView, 'path'>>;

const LONG_SECONDS = 120;

const fixture = useFixtureLibraryCopy('melon-stream-');
const t = useTestServer(async () => {
  const music = fixture.library;
  await addLongTone(music, LONG_SECONDS);
  await mkdir(join(music, 'Gone'), { recursive: true });
  await writeFile(
    join(music, 'Gone', 'Gone.mp3'),
    await readFile(join(music, 'Aurora Lane', 'Fixture Album', '01 - Tone MP3.mp3')),
  );
  return { config: { libraryDirs: [music], maxTranscodes: 2 } };
});
let user: TestUser;
let pass: TestUser;
let mp3: Track;
let flac: Track;
let long: Track;
let gone: Track;

beforeAll(async () => {
  user = await makeUser(t);
  pass = await makeUser(t, { role: 'Pass' });
  const response = await t.call('/api/tracks?count=1000', { token: t.adminToken });
  const tracks = ((await response.json()) as { items: Track[] }).items;
  const at = (suffix: string) => tracks.find((track) => track.path.endsWith(suffix))!;
  mp3 = at('Tone MP3.mp3');
  flac = at('Tone FLAC.flac');
  long = at('Long Tone.flac');
  gone = at('Gone.mp3');
  expect([mp3, flac, long, gone].every(Boolean)).toBe(true);
});

const stream = (track: Track, init: RequestInit & { token?: string } = {}, query = '') =>
  t.call(`/api/tracks/${track.id}/stream${query}`, { token: user.token, ...init });

const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

/** A GET held open after its headers (and first bytes); `abort` drops the connection. */
function openStream(
  path: string,
  token: string,
): Promise<{ res: IncomingMessage; first: Buffer; abort: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(t.url + path, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`status ${res.statusCode}`));
        res.resume();
        return;
      }
      res.once('data', (first: Buffer) => {
        res.pause();
        resolve({ res, first, abort: () => req.destroy() });
      });
    });
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end();
  });
}

async function ffprobe(file: string): Promise<{ codec: string; bitRate: number; duration: number }> {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-select_streams', 'a:0', '-count_packets'],
    ...['-show_entries', 'stream=codec_name,bit_rate:format=duration,bit_rate', '-of', 'json', file],
  ]);
  const info = JSON.parse(stdout) as {
    streams: Array<{ codec_name: string; bit_rate?: string }>;
    format: { duration?: string; bit_rate?: string };
  };
  const stream = info.streams[0]!;
  return {
    codec: stream.codec_name,
    // The codec's own rate when the container states one (MP3 frames do), else size over duration.
    bitRate: Number(stream.bit_rate ?? info.format.bit_rate),
    duration: Number(info.format.duration),
  };
}

describe('the original file', () => {
  it('sends the whole file byte for byte, with its type, length and validators', async () => {
    for (const [track, type] of [
      [mp3, 'audio/mpeg'],
      [flac, 'audio/flac'],
    ] as const) {
      const file = await readFile(track.path);
      const response = await stream(track);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('accept-ranges')).toBe('bytes');
      expect(response.headers.get('content-length')).toBe(String(file.length));
      expect(response.headers.get('etag')).toMatch(/^"[0-9a-f-]+"$/);
      expect(response.headers.get('last-modified')).toMatch(/GMT$/);
      expect(sha256(await bytes(response))).toBe(sha256(file));
    }
  });

  it('streams a long file from disk, identical to the file', async () => {
    const file = await readFile(long.path);
    expect(file.length).toBeGreaterThan(1_000_000);
    const response = await stream(long);
    expect(sha256(await bytes(response))).toBe(sha256(file));
  });

  it('answers single ranges: first byte, last byte, open end, suffix, end past the file', async () => {
    const file = await readFile(mp3.path);
    const size = file.length;
    const cases: Array<[string, number, number]> = [
      ['bytes=0-0', 0, 0],
      [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
      [`bytes=${size - 1}-`, size - 1, size - 1],
      ['bytes=0-', 0, size - 1],
      ['bytes=-100', size - 100, size - 1],
      [`bytes=-${size * 2}`, 0, size - 1],
      ['bytes=10-99999999999999999999', 10, size - 1],
      ['bytes=100-199', 100, 199],
    ];
    for (const [range, start, end] of cases) {
      const response = await stream(mp3, { headers: { Range: range } });
      expect(response.status, range).toBe(206);
      expect(response.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(response.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(response.headers.get('content-type'), range).toBe('audio/mpeg');
      expect((await bytes(response)).equals(file.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('refuses ranges past the end with 416 and the size', async () => {
    const size = (await readFile(mp3.path)).length;
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
      const response = await stream(mp3, { headers: { Range: range } });
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range'), range).toBe(`bytes */${size}`);
      expect((await problem(response)).code, range).toBe('range_not_satisfiable');
    }
  });

  it('sends the whole file for ranges it does not serve: several, malformed, other units', async () => {
    const size = (await readFile(mp3.path)).length;
    for (const range of ['bytes=0-1,5-6', 'bytes=abc', 'items=0-1', 'bytes=5-2', 'bytes=-']) {
      const response = await stream(mp3, { headers: { Range: range } });
      expect(response.status, range).toBe(200);
      expect((await bytes(response)).length, range).toBe(size);
    }
  });

  it('answers If-None-Match and If-Modified-Since with 304, and a stale If-Range with the whole file', async () => {
    const first = await stream(mp3);
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    const cached = await stream(mp3, { headers: { 'If-None-Match': etag } });
    expect(cached.status).toBe(304);
    expect((await bytes(cached)).length).toBe(0);
    expect((await stream(mp3, { headers: { 'If-None-Match': `"other", W/${etag}` } })).status).toBe(304);
    expect((await stream(mp3, { headers: { 'If-Modified-Since': lastModified } })).status).toBe(304);
    const changed = await stream(mp3, { headers: { 'If-None-Match': '"other"' } });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();

    const current = await stream(mp3, { headers: { Range: 'bytes=0-9', 'If-Range': etag } });
    expect(current.status).toBe(206);
    await current.arrayBuffer();
    const stale = await stream(mp3, { headers: { Range: 'bytes=0-9', 'If-Range': '"stale"' } });
    expect(stale.status).toBe(200);
    expect((await bytes(stale)).length).toBe((await readFile(mp3.path)).length);
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const size = (await readFile(mp3.path)).length;
    const head = await stream(mp3, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(size));
    expect(head.headers.get('content-type')).toBe('audio/mpeg');
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect((await bytes(head)).length).toBe(0);
    const ranged = await stream(mp3, { method: 'HEAD', headers: { Range: 'bytes=-10' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
  });

  it('is for every reading role, and 404s unknown tracks and missing files', async () => {
    expect((await stream(mp3, { token: pass.token })).status).toBe(200);
    expect((await stream(mp3, { token: t.adminToken })).status).toBe(200);
    const unknown = await t.call('/api/tracks/nope/stream', { token: user.token });
    expect((await problem(unknown)).code).toBe('track_not_found');
    const traversal = await t.call('/api/tracks/..%2F..%2Fsecret.key/stream', { token: user.token });
    expect(traversal.status).toBe(404);
    await rm(gone.path);
    const missing = await stream(gone);
    expect(missing.status).toBe(404);
    expect((await problem(missing)).code).toBe('track_file_not_found');
  });

  it("plays in the page's <audio> element, which gives a stream token in the address, never in the log", async () => {
    const file = await readFile(mp3.path);
    const issued = await t.call('/api/users/stream-token', { method: 'POST', token: user.token });
    expect(issued.status).toBe(200);
    const secret = ((await issued.json()) as { token: string }).token;
    const played = await t.call(`/api/tracks/${mp3.id}/stream?access_token=${secret}`);
    expect(played.status).toBe(200);
    expect(sha256(await bytes(played))).toBe(sha256(file));
    const seeked = await t.call(`/api/tracks/${mp3.id}/stream?access_token=${secret}`, {
      headers: { Range: 'bytes=10-19' },
    });
    expect(seeked.status).toBe(206);
    const refused = await t.call(`/api/tracks/${mp3.id}/stream?access_token=not-a-token`);
    expect((await problem(refused)).code).toBe('invalid_token');
    // Only the audio takes it: every other route still wants the header.
    const other = await t.call(`/api/tracks/${mp3.id}?access_token=${secret}`);
    expect((await problem(other)).code).toBe('missing_token');
    expect(t.logs.join('\n')).not.toContain(secret);
  });

  it('downloads the original as an attachment with its name', async () => {
    const file = await readFile(flac.path);
    const response = await t.call(`/api/tracks/${flac.id}/download`, { token: pass.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="02 - Tone FLAC.flac"; filename*=UTF-8''02%20-%20Tone%20FLAC.flac`,
    );
    expect(response.headers.get('content-type')).toBe('audio/flac');
    expect(sha256(await bytes(response))).toBe(sha256(file));
  });
});

describe('transcoding', () => {
  it('says in server-info that it transcodes', async () => {
    const info = await t.call('/api/server-info', { token: t.adminToken });
    expect(((await info.json()) as { transcoding: boolean }).transcoding).toBe(true);
  });

  it.each([
    ['mp3', 64, 'mp3', 'audio/mpeg'],
    ['opus', 48, 'opus', 'audio/ogg'],
    ['aac', 96, 'aac', 'audio/aac'],
  ] as const)(
    'makes %s at %i kbps or less, as ffprobe reads it',
    async (format, kbps, codec, type) => {
      const response = await stream(long, {}, `?format=${format}&maxBitRate=${kbps}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('content-length')).toBeNull();
      expect(response.headers.get('accept-ranges')).toBe('none');
      const body = await bytes(response);
      const file = join(dirname(fixture.library), `out-${format}`);
      await writeFile(file, body);
      const probed = await ffprobe(file);
      expect(probed.codec).toBe(codec);
      // The whole encode: as long as the track, and within the asked bit rate, container included.
      expect(probed.duration).toBeGreaterThan(LONG_SECONDS - 1);
      expect(probed.bitRate).toBeLessThanOrEqual(kbps * 1000);
      expect(probed.bitRate).toBeGreaterThan(kbps * 1000 * 0.8);
      // The bytes sent, over the audio's duration: the container's framing fits in too.
      expect((body.length * 8) / probed.duration).toBeLessThanOrEqual(kbps * 1000);
    },
    60_000,
  );

  it('sends the original when it already fits the format and bit rate', async () => {
    // The fixture MP3 is 32 kbps.
    const file = await readFile(mp3.path);
    for (const query of ['?format=mp3&maxBitRate=128', '?maxBitRate=320', '?format=mp3', '?maxBitRate=0']) {
      const response = await stream(mp3, {}, query);
      expect(response.headers.get('accept-ranges'), query).toBe('bytes');
      expect(sha256(await bytes(response)), query).toBe(sha256(file));
    }
    const lower = await stream(flac, {}, '?maxBitRate=64');
    expect(lower.headers.get('content-type')).toBe('audio/mpeg');
    await lower.arrayBuffer();
  });

  it.each([
    ['?format=wav', 'a format it does not encode'],
    ['?format=MP3x', 'a misspelt format'],
    ['?maxBitRate=16', 'a bit rate below what it encodes'],
    ['?maxBitRate=abc', 'a bit rate that is not a number'],
    ['?maxBitRate=-1', 'a negative bit rate'],
  ])('refuses %s, %s, with 400 invalid_parameter', async (query) => {
    const response = await stream(mp3, {}, query);
    expect(response.status).toBe(400);
    expect((await problem(response)).code).toBe('invalid_parameter');
  });

  it('starts a transcode timeOffset seconds in, so a player can seek in it', async () => {
    const response = await stream(long, {}, '?format=mp3&timeOffset=90.5');
    expect(response.status).toBe(200);
    const file = join(dirname(fixture.library), 'out-offset.mp3');
    await writeFile(file, await bytes(response));
    // What is left after the offset, within an MP3 frame or two.
    expect((await ffprobe(file)).duration).toBeCloseTo(LONG_SECONDS - 90.5, 0);
  }, 60_000);

  it('keeps ranges for an original asked with timeOffset', async () => {
    const response = await stream(mp3, { headers: { Range: 'bytes=0-99' } }, '?timeOffset=1');
    expect(response.status).toBe(206);
    expect(await bytes(response)).toEqual((await readFile(mp3.path)).subarray(0, 100));
  });

  it('refuses a timeOffset that is not a number of seconds within the track', async () => {
    for (const query of [
      '?timeOffset=-1',
      '?timeOffset=abc',
      '?timeOffset=1e3',
      `?timeOffset=${LONG_SECONDS + 1}`,
    ]) {
      const response = await stream(long, {}, `${query}&format=mp3`);
      expect(response.status, query).toBe(400);
      const body = await problem(response);
      expect(body.code, query).toBe('invalid_parameter');
    }
  });

  it('answers HEAD of a transcode without starting ffmpeg', async () => {
    const head = await stream(long, { method: 'HEAD' }, '?format=opus');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('audio/ogg');
    expect(await ffmpegChildren()).toEqual([]);
  });

  it('sends first bytes while encoding, and stops ffmpeg at once when the client leaves', async () => {
    expect(await ffmpegChildren()).toEqual([]);
    const started = Date.now();
    const open = await openStream(`/api/tracks/${long.id}/stream?format=mp3&maxBitRate=128`, user.token);
    expect(open.first.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The encode is not over: its ffmpeg still runs while the client holds the stream.
    const running = await ffmpegChildren();
    expect(running).toHaveLength(1);
    open.abort();
    expect(await waitFor(async () => (await ffmpegChildren()).length === 0, 1_500)).toBe(true);
    expect(t.server.services.stream.activeTranscodes).toBe(0);
  }, 30_000);

  it('runs at most MELON_MAX_TRANSCODES encoders; more are 503 busy with Retry-After', async () => {
    const path = `/api/tracks/${long.id}/stream?format=opus&maxBitRate=64`;
    // Two accounts: one account alone may hold only half of the slots.
    const held = [await openStream(path, user.token), await openStream(path, pass.token)];
    expect(await ffmpegChildren()).toHaveLength(2);
    const refused = await t.call(path, { token: t.adminToken });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await problem(refused)).code).toBe('busy');
    // Originals need no encoder and are never refused.
    expect((await stream(mp3)).status).toBe(200);
    for (const stream of held) stream.abort();
    expect(await waitFor(async () => (await ffmpegChildren()).length === 0, 1_500)).toBe(true);
    const again = await openStream(path, user.token);
    again.abort();
    expect(await waitFor(async () => (await ffmpegChildren()).length === 0, 1_500)).toBe(true);
  }, 30_000);
});

describe('without ffmpeg', () => {
  it('sends originals for transcoding requests, and server-info says transcoding: false', async () => {
    const bare = await startTestServer({
      config: { libraryDirs: [fixture.library], ffmpegPath: '/nonexistent/ffmpeg' },
    });
    try {
      const info = await bare.call('/api/server-info', { token: bare.adminToken });
      expect(((await info.json()) as { transcoding: boolean }).transcoding).toBe(false);
      const tracks = (await (
        await bare.call('/api/tracks?count=100', { token: bare.adminToken })
      ).json()) as {
        items: Track[];
      };
      const track = tracks.items.find((item) => item.path.endsWith('Tone FLAC.flac'))!;
      const response = await bare.call(`/api/tracks/${track.id}/stream?format=mp3&maxBitRate=64`, {
        token: bare.adminToken,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/flac');
      expect(sha256(await bytes(response))).toBe(sha256(await readFile(track.path)));
    } finally {
      await bare.stop();
    }
  }, 30_000);
});
