import { appendFile, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../server/logger.js';
import type { StatsFilter } from '../../../server/services/stats/reads/results.js';
import { LoadingIndex } from '../../../server/services/stats/loading-index.js';
import { StatsIndex } from '../../../server/services/stats/stats-index.js';
import { nextTurn } from '../../../server/services/next-turn.js';
import { openStoreWithIndex } from '../../../server/services/stats/persistence/index-saving.js';
import type { Store } from '../../../server/store/open-store.js';
import { PlayLog } from '../../../server/store/play-log.js';
import type { PlayLogEntry } from '../../../server/domain/play.js';
import { orphanFolderLock } from '../../support/dead-process.js';

/**
 * The saved play index (plays.index) is a cache of the play log: a start loads it and reads only
 * the log lines after it; whenever it does not fit the log, the index is rebuilt from the log.
 */
function entry(i: number): PlayLogEntry {
  return {
    // Server-made ids are 22 base64url characters (packed in the index); others are kept as text.
    id: i % 2 ? `${String(i).padStart(21, 'A')}A` : `other-${i}`,
    userId: i % 3 ? 'u1' : 'u2',
    trackId: `t${i % 7}`,
    albumId: `al${i % 2}`,
    artistIds: [`ar${i % 4}`],
    genres: ['Rock'],
    durationMs: 1000 + i,
    device: i % 2 ? 'Phone' : null,
    type: i % 5 === 0 ? 'skip' : 'play',
    // Mostly in time order, with some logs back in the past (offline clients).
    at: Date.UTC(2024, 0, 1) + (i % 10 === 9 ? -i : i) * 60_000,
    explicitAt: false,
    trackName: `Track ${i % 7}`,
    albumName: 'Album',
    artistNames: [`Artist ${i % 4}`],
  };
}

/** Every read the stats API makes, for both users. */
function answers(index: StatsIndex) {
  return ['u1', 'u2'].map((userId) => {
    const all: StatsFilter = { userId };
    const ranged: StatsFilter = {
      userId,
      from: Date.UTC(2024, 0, 1),
      to: Date.UTC(2024, 0, 1, 1),
      device: 'phone',
    };
    return [all, ranged].map((f) => ({
      time: index.listeningTime(f),
      tracks: index.topTracks(f, 0, 50),
      albums: index.topAlbums(f, 0, 50),
      artists: index.topArtists(f, 0, 50),
      genres: index.topGenres(f, 0, 50),
      recent: index.recentPlays(f, 0, 50).map((e) => e.id),
      activity: index.activity({ ...f, from: Date.UTC(2023, 11, 31), to: Date.UTC(2024, 0, 2) }, 'day', 10),
    }));
  });
}

async function open(dataDir: string) {
  const index = new StatsIndex();
  const logger = createMemoryLogger();
  const { store, saveIndex, close } = await openStoreWithIndex(dataDir, { logger, index });
  return { index, store, logger, saveIndex, close };
}

/** Stops a store as a kill would: the log closed, no index save, and the folder's lock left behind. */
async function kill(opened: Awaited<ReturnType<typeof open>>, dataDir: string): Promise<void> {
  await opened.store.plays.close();
  await orphanFolderLock(dataDir);
}

async function rebuilt(dataDir: string) {
  const index = new StatsIndex();
  const log = await PlayLog.open(join(dataDir, 'plays.jsonl'), {
    logger: createMemoryLogger(),
    onEntry: (e) => index.add(e),
  });
  await log.close();
  return answers(index);
}

const appendAll = async (store: Store, from: number, to: number) => {
  for (let i = from; i < to; i += 1) await store.plays.append(entry(i));
};

/** A data folder whose log holds the first `count` entries, closed cleanly (its index saved). */
async function closedFolder(count: number): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'melon-index-'));
  const first = await open(dataDir);
  await appendAll(first.store, 0, count);
  await first.close();
  return dataDir;
}

/**
 * Starts on the folder again and stops: whatever it loaded and read, its index must answer as one
 * built from the whole log does. Returns how many log lines the start read, the index's size and
 * what it logged.
 */
async function restart(dataDir: string): Promise<{ replayed: number; size: number; logs: string }> {
  const opened = await open(dataDir);
  try {
    expect(answers(opened.index)).toEqual(await rebuilt(dataDir));
    return {
      replayed: opened.store.plays.replayed,
      size: opened.index.size,
      logs: opened.logger.lines.join('\n'),
    };
  } finally {
    await opened.close();
  }
}

interface Segment {
  position: unknown;
  texts: string[];
  data: Buffer;
}

/** The segments of a plays.index written by this code (schema 3). */
function segmentsOf(file: Buffer): Segment[] {
  expect(file.subarray(0, 20).toString()).toBe('{"schemaVersion":3}\n');
  const out: Segment[] = [];
  for (let o = 20; o < file.length;) {
    expect(file.subarray(o, o + 4).toString()).toBe('MPS3');
    const [headBytes, textBytes, dataBytes] = [4, 8, 12].map((at) => file.readUInt32LE(o + at)) as [
      number,
      number,
      number,
    ];
    const head = JSON.parse(file.toString('utf8', o + 16, o + 16 + headBytes)) as {
      position: unknown;
      logSnapshots: number;
    };
    const texts = file.toString('utf8', o + 16 + headBytes, o + 16 + headBytes + textBytes).split('\n');
    expect(texts.pop()).toBe('');
    expect(texts).toHaveLength(head.logSnapshots);
    const dataStart = o + 16 + headBytes + textBytes;
    out.push({ position: head.position, texts, data: file.subarray(dataStart, dataStart + dataBytes) });
    o = dataStart + dataBytes + 4;
  }
  return out;
}

/** The same index as Melon wrote it before (schema 2): each segment's texts in its JSON head. */
function asSchema2(file: Buffer): Buffer {
  const parts: Uint8Array[] = [Buffer.from('{"schemaVersion":2}\n')];
  for (const segment of segmentsOf(file)) {
    const head = Buffer.from(JSON.stringify({ position: segment.position, logSnapshots: segment.texts }));
    const start = Buffer.alloc(12);
    start.write('MPS2', 0, 'latin1');
    start.writeUInt32LE(head.length, 4);
    start.writeUInt32LE(segment.data.length, 8);
    parts.push(start, head, segment.data, Buffer.from('MPE2', 'latin1'));
  }
  return Buffer.concat(parts);
}

describe('saved play index', () => {
  it('is saved on close and loaded at the next start, reading no log line again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'melon-index-'));
    const first = await open(dataDir);
    await appendAll(first.store, 0, 120);
    const before = answers(first.index);
    await first.close();

    const second = await open(dataDir);
    expect(second.store.plays.replayed).toBe(0);
    expect(second.store.plays.size).toBe(120);
    expect(second.index.size).toBe(120);
    expect(answers(second.index)).toEqual(before);
    // It keeps working after the load: new logs land in the loaded index.
    await appendAll(second.store, 120, 130);
    expect(answers(second.index)).toEqual(await rebuilt(dataDir));
    await second.close();
  });

  it('reads only the lines written after it when the server stopped without saving (a crash)', async () => {
    const dataDir = await closedFolder(60);
    const second = await open(dataDir);
    await appendAll(second.store, 60, 75);
    await kill(second, dataDir);

    expect(await restart(dataDir)).toMatchObject({ replayed: 15, size: 75 });
  });

  it('is saved while serving once 20,000 logs were added (an import), so a crash then loses none of it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'melon-index-'));
    const first = await open(dataDir);
    await first.store.plays.appendMany(Array.from({ length: 20_050 }, (_, i) => entry(i)));
    // No save was asked for: the index's saving starts one in the background.
    const indexPath = join(dataDir, 'plays.index');
    await expect
      .poll(
        () =>
          stat(indexPath).then(
            (s) => s.size,
            () => 0,
          ),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(20_000 * 28);
    await kill(first, dataDir);

    expect(await restart(dataDir)).toMatchObject({ replayed: 0, size: 20_050 });
  });

  it('is ignored, and the index rebuilt from the log, when it does not fit the log', async () => {
    const dataDir = await closedFolder(40);
    const log = join(dataDir, 'plays.jsonl');
    const lines = (await readFile(log, 'utf8')).split('\n');
    // A log restored from an older backup: shorter than the saved position (20 logs, each after
    // the snapshot line it refers to).
    const twentieth = lines.findIndex(
      (line, i) => lines.slice(0, i + 1).filter((l) => l.startsWith('[')).length === 20,
    );
    await writeFile(log, lines.slice(0, twentieth + 1).join('\n') + '\n');

    expect(await restart(dataDir)).toMatchObject({
      replayed: 20,
      size: 20,
      logs: expect.stringMatching(/does not fit/),
    });

    // A log of the same length whose last line differs (the saved index marks its position by the
    // bytes before it; a hand edit further back needs plays.index deleted, see docs/API.md).
    const third = await open(dataDir);
    await kill(third, dataDir);
    const other = (await readFile(log, 'utf8')).replace(/"durationMs":1019/, '"durationMs":9019');
    await writeFile(log, other);
    expect(await restart(dataDir)).toMatchObject({ replayed: 20 });
  });

  it('is not kept when the index failed to take an entry: the log still has it, the next start rebuilds', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'melon-index-'));
    const first = await open(dataDir);
    await appendAll(first.store, 0, 10);
    const add = first.index.add.bind(first.index);
    first.index.add = (e) => {
      if (e.id === entry(10).id) throw new Error('index bug');
      add(e);
    };
    await expect(first.store.plays.append(entry(10))).resolves.toBeUndefined(); // durable all the same
    await appendAll(first.store, 11, 12);
    await first.close();
    expect(first.logger.lines.join('\n')).toMatch(/indexing a durable entry failed/);

    expect(await restart(dataDir)).toMatchObject({ replayed: 12, size: 12 });
  });

  it('is ignored when its bytes are damaged', async () => {
    const dataDir = await closedFolder(30);
    const saved = join(dataDir, 'plays.index');
    const bytes = await readFile(saved);
    // The header still fits the log, the index data does not decode.
    const newline = bytes.indexOf(0x0a);
    await writeFile(
      saved,
      Buffer.concat([bytes.subarray(0, newline + 1), Buffer.alloc(bytes.length - newline - 1, 7)]),
    );

    expect(await restart(dataDir)).toMatchObject({ replayed: 30 });

    await appendFile(saved, 'x'); // a length that does not match the header
    expect(await restart(dataDir)).toMatchObject({ replayed: 30 });
  });

  it("is ignored when a segment's data does not match its checksum, or has none (saved before it)", async () => {
    const dataDir = await closedFolder(30);
    const saved = join(dataDir, 'plays.index');
    const bytes = await readFile(saved);
    // A byte of the last row's time (the row ends where "MPE3" starts): still a time that fits.
    const damaged = Buffer.from(bytes);
    const at = damaged.length - 4 - 28 + 3;
    damaged[at] = damaged[at]! ^ 0x01;
    await writeFile(saved, damaged);
    expect(await restart(dataDir)).toMatchObject({
      replayed: 30,
      logs: expect.stringMatching(/the saved play index is damaged; rebuilding it from the play log/),
    });

    // Rewritten whole by that start: the same segment with its head as an older Melon wrote it.
    const [segment] = segmentsOf(await readFile(saved));
    const texts = Buffer.from(segment!.texts.map((text) => `${text}\n`).join(''));
    const head = Buffer.from(
      JSON.stringify({
        position: segment!.position,
        logSnapshots: segment!.texts.length,
        textsCrc: crc32(texts),
      }),
    );
    const start = Buffer.alloc(16);
    start.write('MPS3', 0, 'latin1');
    start.writeUInt32LE(head.length, 4);
    start.writeUInt32LE(texts.length, 8);
    start.writeUInt32LE(segment!.data.length, 12);
    const older = [
      Buffer.from('{"schemaVersion":3}\n'),
      start,
      head,
      texts,
      segment!.data,
      Buffer.from('MPE3'),
    ];
    await writeFile(saved, Buffer.concat(older));
    // An upgrade, not damage: said plainly.
    const upgraded = await restart(dataDir);
    expect(upgraded).toMatchObject({
      replayed: 30,
      logs: expect.stringMatching(
        /plays\.index was saved by an older Melon; rebuilding it once from the play log/,
      ),
    });
    expect(upgraded.logs).not.toMatch(/damaged|does not fit/);
    // Saved afresh with its checksum: the next start loads it.
    expect(await restart(dataDir)).toMatchObject({
      replayed: 0,
      logs: expect.not.stringMatching(/rebuilding/),
    });
  });

  it('loses no log line to a snapshot text in it that does not read: the index is rebuilt from the whole log', async () => {
    const dataDir = await closedFolder(20);
    const second = await open(dataDir);
    // The log's last line refers to a snapshot only the saved index's texts hold.
    await second.store.plays.append({ ...entry(0), id: 'other-last', at: Date.UTC(2024, 1, 1) });
    await kill(second, dataDir);
    const log = join(dataDir, 'plays.jsonl');
    const logBytes = (await stat(log)).size;
    const saved = join(dataDir, 'plays.index');
    const bytes = await readFile(saved, 'latin1');
    // As long as before: the file's framing holds, the text is JSON but no snapshot.
    expect(bytes).toContain('"trackId"');
    await writeFile(saved, bytes.replace('"trackId"', '"trackXd"'), 'latin1');

    const index = new StatsIndex();
    const loading = new LoadingIndex(index, nextTurn);
    const third = await openStoreWithIndex(dataDir, { logger: createMemoryLogger(), index: loading });
    try {
      expect((await stat(log)).size).toBe(logBytes);
      expect(await loading.finish()).toBe(false);
      await third.rebuildIndex();
      expect(index.size).toBe(21);
      expect(answers(index)).toEqual(await rebuilt(dataDir));
    } finally {
      await third.close();
    }
  });

  it("keeps each snapshot's text byte for byte as the play log defines it", async () => {
    const dataDir = await closedFolder(40);
    const second = await open(dataDir);
    await appendAll(second.store, 40, 60);
    await second.close();
    const segments = segmentsOf(await readFile(join(dataDir, 'plays.index')));
    expect(segments.length).toBeGreaterThan(1);
    const defined = (await readFile(join(dataDir, 'plays.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('{"snapshot":'))
      .map((line) => `{${line.slice(line.indexOf(',') + 1)}`);
    expect(defined.length).toBeGreaterThan(7);
    expect(segments.flatMap((s) => s.texts)).toEqual(defined);
  });

  it("gives a play of a snapshot the saved index holds that snapshot's number, after a restart", async () => {
    const dataDir = await closedFolder(40);
    const log = join(dataDir, 'plays.jsonl');
    const definitions = async () =>
      (await readFile(log, 'utf8')).split('\n').filter((line) => line.startsWith('{"snapshot":')).length;
    const before = await definitions();
    const second = await open(dataDir);
    // Soon the log holds no bytes of the saved texts any more: the index makes them again.
    await expect
      .poll(() => {
        try {
          second.store.plays.snapshots.texts.bytes(0, 1);
          return 'held';
        } catch {
          return 'let go';
        }
      })
      .toBe('let go');
    await appendAll(second.store, 40, 41);
    expect(await definitions()).toBe(before + 1);
    await second.store.plays.append({ ...entry(3), id: 'other-again', at: Date.UTC(2024, 2, 1) });
    await second.store.plays.append({ ...entry(40), id: 'other-again-40', at: Date.UTC(2024, 2, 2) });
    expect(await definitions()).toBe(before + 1);
    await second.close();
    expect(await restart(dataDir)).toMatchObject({ replayed: 0, size: 43 });
  });

  it("rebuilds once from the log an index an older Melon saved (the texts in each segment's JSON head, no data checksum), saying so plainly", async () => {
    const dataDir = await closedFolder(40);
    const saved = join(dataDir, 'plays.index');
    const schema3 = await readFile(saved);
    // Its data damaged too: nothing in the file tells it, so it must not be loaded, nor kept.
    const damaged = Buffer.from(schema3);
    const at = damaged.length - 4 - 28 + 3;
    damaged[at] = damaged[at]! ^ 0x01;
    await writeFile(saved, asSchema2(damaged));

    const upgraded = await restart(dataDir);
    expect(upgraded).toMatchObject({
      replayed: 40,
      size: 40,
      logs: expect.stringMatching(
        /plays\.index was saved by an older Melon; rebuilding it once from the play log/,
      ),
    });
    expect(upgraded.logs).not.toMatch(/damaged|does not fit/);
    // Saved afresh in this schema, from the log: the next start loads it.
    expect(segmentsOf(await readFile(saved)).length).toBeGreaterThan(0);
    expect(await restart(dataDir)).toMatchObject({ replayed: 0, size: 40 });
  });

  it('grows by a segment per save, and is ignored when cut short or of another format', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'melon-index-'));
    const first = await open(dataDir);
    await appendAll(first.store, 0, 30);
    await first.saveIndex();
    const saved = join(dataDir, 'plays.index');
    const once = await readFile(saved);
    await appendAll(first.store, 30, 45);
    await first.close();
    const twice = await readFile(saved);
    // Appended, never rewritten: the first save's bytes are still the file's first bytes.
    expect(twice.length).toBeGreaterThan(once.length);
    expect(twice.subarray(0, once.length).equals(once)).toBe(true);

    expect(await restart(dataDir)).toMatchObject({ replayed: 0 });

    // A save cut short (a crash part way through the last segment).
    const whole = await readFile(saved);
    await writeFile(saved, whole.subarray(0, whole.length - 7));
    expect(await restart(dataDir)).toMatchObject({
      replayed: 45,
      logs: expect.stringMatching(/is damaged; rebuilding it/),
    });

    // An index of another format (as an older Melon saved it): ignored, then saved afresh.
    await writeFile(
      saved,
      Buffer.concat([Buffer.from('{"schemaVersion":1,"length":3}\n'), Buffer.from([1, 2, 3])]),
    );
    expect(await restart(dataDir)).toMatchObject({ replayed: 45 });
    expect(await restart(dataDir)).toMatchObject({ replayed: 0 });
  });
});
