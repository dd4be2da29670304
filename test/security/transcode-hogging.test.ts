import { mkdir } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { ffmpegChildren, waitFor } from '../support/ffmpeg-children.js';
import { writeTone } from '../support/audio.js';
import { problem, useTestServer } from '../support/server.js';
import { tempDirPerFile } from '../support/temp-dir.js';

/**
 * One member opens transcodes and never reads them. Each holds an encoder slot, so with every slot
 * held the rest of the household gets `busy`. One account may hold at most half of the slots, and
 * an encode whose output nobody reads is ended (after 30 s; shortened here) and its slot freed.
 */
const IDLE_MS = 1_500;

const base = tempDirPerFile('melon-hog-');
const t = useTestServer(async () => {
  // Half an hour: its transcode at 320 kbps is far more than the socket buffers between a client
  // and the server hold, so an encode nobody reads stalls instead of finishing.
  await mkdir(base.path('music', 'Long'), { recursive: true });
  await writeTone(base.path('music', 'Long', 'Long.flac'), {
    seconds: 1800,
    channels: 1,
    tags: { title: 'Long' },
  });
  return { config: { libraryDirs: [base.path('music')], maxTranscodes: 4, transcodeIdleMs: IDLE_MS } };
});
let pass: TestUser;
let user: TestUser;
let path: string;
const held: ClientRequest[] = [];

beforeAll(async () => {
  pass = await makeUser(t, { role: 'Pass' });
  user = await makeUser(t);
  const tracks = (await (await t.call('/api/tracks', { token: t.adminToken })).json()) as {
    items: Array<{ id: string }>;
  };
  path = `/api/tracks/${tracks.items[0]!.id}/stream?format=mp3&maxBitRate=320`;
});

// Registered after the server, so it runs before the server stops (after-hooks run in reverse).
afterAll(() => {
  for (const request of held) request.destroy();
});

/** Starts a transcode, takes its headers and first bytes, then stops reading (but stays connected). */
function openUnread(token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(t.url + path, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(res.statusCode ?? 0);
        return;
      }
      res.once('data', () => {
        res.pause();
        resolve(200);
      });
    });
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    held.push(req);
    req.end();
  });
}

describe('one account holding transcodes it never reads', () => {
  it('gets at most half of the slots; another member still gets one', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await openUnread(pass.token));
    expect(statuses).toEqual([200, 200, 503, 503]);
    const head = await t.call(path, { token: pass.token, method: 'HEAD' });
    expect(head.status).toBe(200); // a HEAD starts no encoder, so it is never refused
    const again = await fetch(t.url + path, { headers: { Authorization: `Bearer ${pass.token}` } });
    expect(again.status).toBe(503);
    expect((await problem(again)).code).toBe('busy');
    expect(await openUnread(user.token)).toBe(200);
  }, 60_000);

  it('loses an encode nobody reads: the encoder ends and its slot is free again', async () => {
    expect((await ffmpegChildren()).length).toBeGreaterThan(0);
    // The clients stay connected and do nothing: only their silence ends the encoders.
    expect(await waitFor(async () => (await ffmpegChildren()).length === 0, 40_000)).toBe(true);
    expect(await openUnread(pass.token)).toBe(200);
  }, 60_000);
});

describe('a player seeking in a transcode, as quickly as a member presses a key', () => {
  it('drops one of its encodes and at once asks again from elsewhere: it gets the slot being freed', async () => {
    const member = await makeUser(t);
    expect(await openUnread(member.token)).toBe(200);
    expect(await openUnread(member.token)).toBe(200);
    // The account's share is held. The player leaves the last stream (the element drops it) and
    // asks for the track from another place in the same moment.
    held.pop()!.destroy();
    const again = await fetch(`${t.url}${path}&timeOffset=20`, {
      headers: { Authorization: `Bearer ${member.token}` },
    });
    expect(again.status).toBe(200);
    await again.body?.cancel();
  }, 60_000);
});
