import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { fakeScanner } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { ASTLEY_MBID, historyLibrary } from '../history/library.js';
import { upload } from '../history/support.js';
import { problem, useTestServer } from '../support/server.js';

/**
 * Imports run one at a time for the whole household, and each waiting one keeps its upload (up to
 * 1 GiB) in the data folder. A member uploading again and again filled the disk and held everyone
 * else's imports back. Now at most one import per user waits behind the running one; more are
 * `409 import_queue_full`, and their uploads are not kept.
 */
const t = useTestServer({ scanner: fakeScanner(historyLibrary()) });
let member: TestUser;
let neighbour: TestUser;

beforeAll(async () => {
  member = await makeUser(t);
  neighbour = await makeUser(t);
});

/** ListenBrainz JSON lines: `count` listens a second apart, from `start` (epoch seconds). */
function listens(count: number, start: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i += 1) {
    lines.push(
      JSON.stringify({
        listened_at: start + i,
        track_metadata: {
          artist_name: 'Rick Astley',
          track_name: 'Never Gonna Give You Up',
          additional_info: { recording_mbid: ASTLEY_MBID },
        },
      }),
    );
  }
  return lines.join('\n') + '\n';
}

const START = Date.parse('2023-01-01T00:00:00Z') / 1000;

/** Uploads `count` ListenBrainz listens, the first at `start`, as the holder of `token`. */
const uploadListens = (token: string, count: number, start: number, name: string) =>
  upload(t, token, { source: 'listenbrainz' }, listens(count, start), name);

it('a member gets one running and one waiting import; the next is 409 and its upload is not kept', async () => {
  // Large enough to still be running while the next uploads arrive.
  const first = await uploadListens(member.token, 100_000, START, 'a.jsonl');
  expect(first.status).toBe(202);
  const second = await uploadListens(member.token, 10, START - 100, 'b.jsonl');
  expect(second.status).toBe(202);
  const third = await uploadListens(member.token, 10, START - 200, 'c.jsonl');
  expect(third.status).toBe(409);
  expect(await problem(third)).toMatchObject({ code: 'import_queue_full' });
  // Kept in the data folder: the two accepted uploads only (the first may already be done).
  const kept = (await readdir(join(t.dataDir, 'imports'))).filter((name) => name.endsWith('.upload'));
  expect(kept.length).toBeGreaterThanOrEqual(1);
  expect(kept.length).toBeLessThanOrEqual(2);
  // Someone else's import is not held to this member's limit.
  const other = await uploadListens(neighbour.token, 10, START, 'd.jsonl');
  expect(other.status).toBe(202);
  await t.server.services.imports.idle();
  // Once the queue has moved on, the member may import again.
  const later = await uploadListens(member.token, 10, START - 200, 'c.jsonl');
  expect(later.status).toBe(202);
  await t.server.services.imports.idle();
}, 300_000);
