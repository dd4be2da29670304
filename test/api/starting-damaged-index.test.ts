import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeScanner, oneAlbumLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { waitFor } from '../support/ffmpeg-children.js';
import { postJson, startTestServer, type TestServer } from '../support/server.js';

/**
 * A start over a `plays.index` damaged on disk (docs/API.md, Starting): whatever the damage, the
 * server rebuilds the index from the play log and answers every statistic as the log has it; it
 * never trusts the damaged copy, and never stays starting for good.
 */
const library = oneAlbumLibrary(2);

type TopTracks = { id: string; plays: number; listeningMs: number | null }[];
type Listening = { totalMs: number; plays: number };

describe('a server starting over a damaged saved play index', () => {
  let first: TestServer;
  let member: TestUser;
  let saved: Buffer;
  let trackMs: number;
  const answers = async (t: TestServer) => {
    const top = await t.call('/api/stats/top-tracks', { token: member.token });
    const time = await t.call('/api/stats/listening-time', { token: member.token });
    expect([top.status, time.status]).toEqual([200, 200]);
    const tracks = (await top.json()) as TopTracks;
    const { totalMs, plays } = (await time.json()) as Listening;
    return {
      tracks: tracks.map(({ id, plays, listeningMs }) => ({ id, plays, listeningMs })),
      totalMs,
      plays,
    };
  };
  let expected: Awaited<ReturnType<typeof answers>>;

  beforeAll(async () => {
    first = await startTestServer({ scanner: fakeScanner(library) });
    member = await makeUser(first);
    for (const id of ['t1', 't2', 't2', 't2'])
      expect((await postJson(first, '/api/stats/log-play', { id }, member.token)).status).toBe(200);
    expected = await answers(first);
    // Both tracks last as long: four plays of it.
    trackMs = expected.totalMs / 4;
    await first.stop(true);
    saved = await readFile(join(first.dataDir, 'plays.index'));
  });
  afterAll(async () => {
    await first?.stop();
  });

  /** A start over the first server's data folder, with the same library and clock. */
  const restart = () =>
    startTestServer({ scanner: fakeScanner(library), dataDir: first.dataDir, clock: first.clock });

  const f64 = (ms: number) => {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(ms);
    return b;
  };
  /** The saved file with the first (or last) `from` replaced by `to`, of the same length. */
  const replaced = (from: Buffer, to: Buffer, which: 'first' | 'last' = 'first') => {
    const at = which === 'first' ? saved.indexOf(from) : saved.lastIndexOf(from);
    expect(at).toBeGreaterThan(0);
    const copy = Buffer.from(saved);
    to.copy(copy, at);
    return copy;
  };

  it.each([
    // Every number still refers to an entry: only the data's checksum tells.
    ["a track id changed into the other's", () => replaced(Buffer.from('t1t2'), Buffer.from('t1t1'))],
    ['a duration changed into no number', () => replaced(f64(trackMs), f64(NaN))],
    [
      "a play of t2 changed into one of t1's",
      () => {
        // The last row's snapshot (the row ends where "MPE3" starts) made t1's, the first one.
        const copy = Buffer.from(saved);
        expect(copy.readUInt32LE(copy.length - 4 - 28 + 12)).toBe(1);
        copy.writeUInt32LE(0, copy.length - 4 - 28 + 12);
        return copy;
      },
    ],
    ['the file cut short', () => saved.subarray(0, saved.length - 10)],
  ])(
    'rebuilds the index from the log and answers every statistic as the log has it: %s',
    async (_, damage) => {
      await writeFile(join(first.dataDir, 'plays.index'), damage());
      const t = await restart();
      try {
        expect(await answers(t)).toEqual(expected);
        expect(t.logs.join('\n')).toMatch(/the saved play index is damaged; rebuilding it from the play log/);
        expect(t.logs.join('\n')).not.toMatch(/could not load the saved play index/);
      } finally {
        await t.stop(true);
      }
    },
  );

  it('rebuilds from the log a saved index whose checksums fit but which names a track twice', async () => {
    // The damage saved with checksums that fit it, as a copy saved wrong would be: only the ids'
    // look-ups, made while the index loads for the reads before the library, find it.
    await writeFile(
      join(first.dataDir, 'plays.index'),
      withDataCrcs(replaced(Buffer.from('t1t2'), Buffer.from('t1t1'))),
    );
    for (const start of ['this start', 'the next']) {
      const t = await restart();
      try {
        expect(await answers(t), start).toEqual(expected);
        const logs = t.logs.join('\n');
        if (start === 'this start')
          expect(logs).toMatch(/the saved play index is damaged; rebuilding it from the play log/);
        expect(logs).not.toMatch(/could not load the saved play index/);
      } finally {
        await t.stop(true);
      }
    }
  });

  it('removes, once loaded, a saved index that names two tracks alike, and the next start rebuilds it', async () => {
    // A name is looked up only after the load (no read before the library needs it), so this start
    // answers from it; the track ids are not touched, so its answers are still the log's. The last
    // "Track t2" is the saved strings' (the first, the log's snapshot text, has a checksum of its own).
    const path = join(first.dataDir, 'plays.index');
    await writeFile(path, withDataCrcs(replaced(Buffer.from('Track t2'), Buffer.from('Track t1'), 'last')));
    const t = await restart();
    try {
      expect(await answers(t)).toEqual(expected);
      const told = () => Promise.resolve(t.logs.join('\n').includes('holds a string twice'));
      expect(await waitFor(told, 10_000)).toBe(true);
      const gone = () =>
        access(path).then(
          () => false,
          () => true,
        );
      expect(await waitFor(gone, 10_000)).toBe(true);
    } finally {
      await t.stop(true);
    }
    const next = await restart();
    try {
      expect(await answers(next)).toEqual(expected);
      expect(next.logs.join('\n')).not.toMatch(/holds a string twice|damaged/);
    } finally {
      await next.stop(true);
    }
  });
});

/** A plays.index (schema 3) with each segment's data checksum made again for the data it holds. */
function withDataCrcs(file: Buffer): Buffer {
  const header = file.indexOf(0x0a) + 1;
  const parts: Buffer[] = [file.subarray(0, header)];
  for (let o = header; o < file.length;) {
    const [headBytes, textBytes, dataBytes] = [4, 8, 12].map((at) => file.readUInt32LE(o + at)) as [
      number,
      number,
      number,
    ];
    const texts = file.subarray(o + 16 + headBytes, o + 16 + headBytes + textBytes);
    const data = file.subarray(o + 16 + headBytes + textBytes, o + 16 + headBytes + textBytes + dataBytes);
    const head = Buffer.from(
      JSON.stringify({
        ...JSON.parse(file.toString('utf8', o + 16, o + 16 + headBytes)),
        dataCrc: crc32(data),
      }),
    );
    const start = Buffer.from(file.subarray(o, o + 16));
    start.writeUInt32LE(head.length, 4);
    parts.push(start, head, texts, data, Buffer.from('MPE3'));
    o += 16 + headBytes + textBytes + dataBytes + 4;
  }
  return Buffer.concat(parts);
}
