import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { makeUser } from '../factories/users.js';
import { useChildAsAdmin } from '../support/child-server.js';
import { bigPng, writeMp3WithPictures } from '../support/hostile-audio.js';

/**
 * Parallel requests by a Pass account for one large track picture must not each hold a copy of it
 * (parse the file, copy the picture and hash it): 40 ask for one of 15 MiB. The server
 * runs in its own process here, so its memory is measured alone: the peak resident size (VmHWM,
 * reset just before the requests) may grow by at most 64 MiB.
 */
const MIB = 1024 * 1024;
const PICTURE = bigPng(15 * MIB);
const PICTURE_SHA = createHash('sha256').update(PICTURE).digest('hex');

const child = useChildAsAdmin('melon-art-memory-', ({ music }) =>
  writeMp3WithPictures(join(music, 'Big.mp3'), [{ data: PICTURE, mime: 'image/png' }]),
);
let token: string;
let trackId: string;

beforeAll(async () => {
  token = (await makeUser(child, { role: 'Pass' })).token;
  // The start-up scan runs in the background: wait for the track.
  for (let i = 0; i < 300 && !trackId; i++) {
    const list = (await (await child.call('/api/tracks', { token })).json()) as {
      items: Array<{ id: string }>;
    };
    if (list.items[0]) trackId = list.items[0].id;
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

/** The server's resident size and its peak, in bytes (Linux /proc). */
async function memory(): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${child.server.child.pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** GETs a URL and hashes the body as it streams in (the test process keeps none of it). */
function download(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; type: string; etag: string; size: number; sha: string }>(
    (resolve, reject) => {
      const hash = createHash('sha256');
      let size = 0;
      get(child.server.url + path, { headers: { Authorization: `Bearer ${token}`, ...headers } }, (res) => {
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          hash.update(chunk);
        });
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'] ?? '',
            etag: String(res.headers.etag ?? ''),
            size,
            sha: hash.digest('hex'),
          }),
        );
      }).on('error', reject);
    },
  );
}

it('40 parallel requests for one 15 MiB track picture grow the server by at most 64 MiB', async () => {
  expect(trackId).toBeTruthy();
  // Warm the route (and its modules) with a small image first, so only the picture is measured.
  expect((await download('/api/art/default')).status).toBe(200);
  const before = await memory();
  // Writing 5 to clear_refs resets the peak (VmHWM) to the current size.
  await writeFile(`/proc/${child.server.child.pid}/clear_refs`, '5');
  const answers = await Promise.all(
    Array.from({ length: 40 }, () => download(`/api/art/track/${trackId}/0`)),
  );
  const after = await memory();
  for (const answer of answers) {
    expect(answer).toMatchObject({ status: 200, type: 'image/png', size: PICTURE.length, sha: PICTURE_SHA });
  }
  const grownPeak = after.peak - before.rss;
  const grown = after.rss - before.rss;
  console.log(
    `artwork memory: rss before ${(before.rss / MIB).toFixed(1)} MiB, after ${(after.rss / MIB).toFixed(1)} MiB ` +
      `(+${(grown / MIB).toFixed(1)}), peak +${(grownPeak / MIB).toFixed(1)} MiB`,
  );
  expect(grownPeak).toBeLessThanOrEqual(64 * MIB);
  // The ETag still answers 304, and the picture comes from the cache's file, not a new parse.
  const etag = answers[0]!.etag;
  expect((await download(`/api/art/track/${trackId}/0`, { 'If-None-Match': etag })).status).toBe(304);
  expect(await readdir(join(child.root, 'data', 'cache', 'images'))).toHaveLength(1);
}, 120_000);
