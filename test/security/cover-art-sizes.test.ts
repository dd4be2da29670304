import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { makeUser } from '../factories/users.js';
import { useChildAsAdmin } from '../support/child-server.js';
import { writeMp3WithPictures } from '../support/hostile-audio.js';
import { noisePng, pngBomb } from '../support/hostile-images.js';

/**
 * `getCoverArt&size=` from a Pass account: every size from 1 to 2048 was a resize of its own, all at
 * once, each decoding its own copy of the picture. 96 sizes of an ordinary 3000 × 3000 PNG grew the
 * server past a gigabyte, and a 1 MB PNG bomb (16383², 1 GiB decoded) cost seconds of CPU a resize.
 * The server runs in its own process so that its memory and CPU time are its own.
 */
const MIB = 1024 * 1024;
/** Peak resident growth allowed for the 96 requests: the decode of one 3000² picture fits well. */
const MEMORY_LIMIT = 100 * MIB;
/** CPU the bomb requests may cost all together; decoding the bomb once costs seconds. */
const BOMB_CPU_LIMIT_MS = 1_000;

const melon = useChildAsAdmin(
  'melon-cover-sizes-',
  async ({ music }) => {
    await writeMp3WithPictures(join(music, 'Cover.mp3'), [
      { data: await noisePng(3000, 3000), mime: 'image/png' },
    ]);
    await writeMp3WithPictures(join(music, 'Bomb.mp3'), [{ data: await pngBomb(), mime: 'image/png' }]);
    await writeMp3WithPictures(join(music, 'Plain.mp3'), []);
  },
  180_000,
);
let apiKey: string;
let passToken: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const { call } = melon;
  const pass = await makeUser(melon, { role: 'Pass' });
  passToken = pass.token;
  const created = await call('/api/users/api-keys/create', {
    method: 'POST',
    token: pass.token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'wall display' }),
  });
  apiKey = ((await created.json()) as { key: string }).key;
  // The start-up scan runs in the background: wait for the three tracks.
  for (let i = 0; i < 600 && Object.keys(ids).length < 3; i++) {
    const list = (await (await call('/api/tracks', { token: pass.token })).json()) as {
      items: Array<{ id: string; name: string }>;
    };
    for (const item of list.items) ids[item.name.replace(/\.mp3$/, '')] = item.id;
    if (Object.keys(ids).length < 3) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 180_000);

/**
 * A GET on a connection of its own (none is reused after the server closed it as idle), the body
 * hashed as it streams in: the test process keeps none of it, so its own memory and event loop stay
 * out of what is measured.
 */
function download(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; type: string; sha: string }>((resolve, reject) => {
    get(melon.server.url + path, { agent: false, headers }, (res) => {
      const hash = createHash('sha256');
      res.on('data', (part: Buffer) => hash.update(part));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers['content-type'] ?? '',
          sha: hash.digest('hex'),
        }),
      );
    }).on('error', reject);
  });
}
const coverArt = (track: string, size: number) =>
  download(`/rest/getCoverArt?apiKey=${apiKey}&id=tr-${ids[track]}&size=${size}`);

/** The server's resident size and its peak, in bytes, and its CPU time in ms (Linux /proc). */
async function usage(): Promise<{ rss: number; peak: number; cpuMs: number }> {
  const pid = melon.server.child.pid!;
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  // utime and stime, the 14th and 15th fields, in clock ticks (100 a second on Linux).
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return { rss: kib('VmRSS'), peak: kib('VmHWM'), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
}

/**
 * Another member's small downloads, one after the other, from a process of its own (the test
 * process is busy receiving the pictures): stop() ends them and resolves to each one's milliseconds.
 */
function smallDownloads(): { stop: () => Promise<number[]> } {
  const script = `
    import { get } from 'node:http';
    let done = false;
    process.stdin.on('end', () => (done = true)).resume();
    const times = [];
    while (!done) {
      const start = performance.now();
      await new Promise((ok, fail) =>
        get(process.env.URL, { agent: false, headers: { Authorization: process.env.AUTH } }, (res) =>
          res.resume().on('end', ok),
        ).on('error', fail),
      );
      times.push(performance.now() - start);
    }
    process.stdout.write(JSON.stringify(times));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { URL: `${melon.server.url}/api/art/default`, AUTH: `Bearer ${passToken}` },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (part: Buffer) => (out += part.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    stop: async () => {
      child.stdin.end();
      await exited;
      return JSON.parse(out) as number[];
    },
  };
}
const p99 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.99)] ?? 0;

it('96 different sizes of a 3000 × 3000 PNG at once grow the server by at most 100 MiB', async () => {
  expect(Object.keys(ids).sort()).toEqual(['Bomb', 'Cover', 'Plain']);
  // Warm the method (and sharp) with the small default art, so only the big picture is measured.
  expect((await coverArt('Plain', 300)).status).toBe(200);
  const quiet = smallDownloads();
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idle = await quiet.stop();
  const before = await usage();
  // Writing 5 to clear_refs resets the peak (VmHWM) to the current size.
  await writeFile(`/proc/${melon.server.child.pid}/clear_refs`, '5');
  const busy = smallDownloads();
  const sizes = Array.from({ length: 96 }, (_, i) => 1 + i * 21);
  const answers = await Promise.all(sizes.map((size) => coverArt('Cover', size)));
  const after = await usage();
  for (const answer of answers) expect(answer).toMatchObject({ status: 200, type: 'image/png' });
  // Snapped to six answers: five steps, and the original for sizes over 1024.
  expect(new Set(answers.map((answer) => answer.sha)).size).toBe(6);
  const grown = after.peak - before.rss;
  const latency = await busy.stop();
  console.log(
    `cover sizes: peak +${(grown / MIB).toFixed(1)} MiB; a small download's p99 ${p99(idle).toFixed(1)} ms idle, ` +
      `${p99(latency).toFixed(1)} ms during (${latency.length} downloads); ${(os.loadavg()[0] ?? 0).toFixed(1)} load`,
  );
  expect(grown).toBeLessThanOrEqual(MEMORY_LIMIT);
}, 120_000);

it('a 1 MB PNG bomb of 16383 × 16383 is never decoded: the default art is served at each size', async () => {
  const before = await usage();
  for (const size of [64, 300, 600, 1000]) {
    const bomb = await coverArt('Bomb', size);
    const plain = await coverArt('Plain', size);
    expect(bomb.status).toBe(200);
    expect(bomb.sha).toBe(plain.sha);
  }
  const after = await usage();
  console.log(`png bomb: ${after.cpuMs - before.cpuMs} ms of server CPU for 8 requests`);
  expect(after.cpuMs - before.cpuMs).toBeLessThan(BOMB_CPU_LIMIT_MS);
}, 120_000);
