import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ROW_EXPLICIT_AT,
  ROW_SKIP,
  type LoggedNames,
  type LoggedRows,
  type PlayLogEntry,
  type PlaySnapshot,
} from '../../../server/domain/play.js';
import { createMemoryLogger } from '../../../server/logger.js';
import { HEADER, playLine, snapshotLine, snapshotText } from '../../../server/store/play-log-codec.js';
import { PlayLog } from '../../../server/store/play-log.js';
import { readRowsInThread } from '../../../server/store/play-log-row-thread.js';
import { LogSnapshots } from '../../../server/store/play-log-snapshots.js';

const snapshot = (i: number): PlaySnapshot => ({
  trackId: `t${i}`,
  albumId: i % 3 === 0 ? null : `al${i % 40}`,
  artistIds: [`ar${i % 25}`],
  genres: i % 2 ? ['Rock'] : ['Jazz', 'Ünïcödé ♫'],
  durationMs: i % 50 === 0 ? NaN : 200_000 + i,
  trackName: `Track ${i}`,
  albumName: i % 3 === 0 ? null : 'Album',
  artistNames: ['Artist'],
});

const entry = (i: number): PlayLogEntry => ({
  ...snapshot(0),
  id: `log${i}`,
  userId: `user-${i % 7}`,
  device: i % 3 === 0 ? null : `Phone ${i % 5}`,
  type: i % 5 === 0 ? 'skip' : 'play',
  at: Date.UTC(2024, 0, 1) + i * 1000,
  explicitAt: i % 4 === 0,
});

const SNAPSHOTS = 200;

/**
 * A log of `rows` log lines over more batches than the reader has in flight, with what a log may
 * hold besides: snapshots defined along the way (one twice, identically), a line that does not
 * read, one referring to a snapshot not defined yet, a user id with an escape, a snapshot defined
 * after the last log line, and a torn last line.
 */
function logText(rows: number): string {
  const lines = [HEADER];
  let defined = 0;
  const define = (n: number) => lines.push(snapshotLine(n, snapshotText(snapshot(n))));
  for (let i = 0; i < rows; i += 1) {
    if (i % 1000 === 0 && defined < SNAPSHOTS - 1) define(defined++);
    if (i === 5000) define(2);
    if (i === 7000) lines.push('this line does not read\n');
    if (i === 9000) lines.push(playLine(entry(i), defined + 5));
    const e = i === 11_000 ? { ...entry(i), userId: 'say "hi"' } : entry(i);
    lines.push(playLine(e, i % defined));
  }
  define(defined);
  lines.push('[1700000000000,"user-1",0,nu');
  return lines.join('');
}

/** Opens a copy of the log at `path`, the rows read on the main thread or in a worker. */
async function read(path: string, rowThread: boolean, slowly = false) {
  const copy = join(await mkdtemp(join(tmpdir(), 'melon-rows-')), 'plays.jsonl');
  await copyFile(path, copy);
  const logger = createMemoryLogger();
  const rows: string[] = [];
  const batches: number[] = [];
  const texts = new Map<number, string | undefined>();
  const onRows = (batch: LoggedRows, names: LoggedNames) => {
    // A main thread busy with each batch: a worker not held back would overwrite the batch it reads.
    if (slowly) for (const until = Date.now() + 150; Date.now() < until;);
    batches.push(batch.count);
    for (let i = 0; i < batch.count; i += 1) {
      const device = batch.device[i]! === 0 ? null : names.devices[batch.device[i]! - 1];
      const kind = batch.kind[i]!;
      const n = batch.snapshot[i]!;
      if (!texts.has(n)) texts.set(n, snapshotText(names.snapshot(n)!));
      rows.push(
        [
          batch.at[i],
          names.users[batch.user[i]!],
          batch.snapshot[i],
          texts.get(n),
          device,
          kind & ROW_SKIP ? 'skip' : 'play',
          kind & ROW_EXPLICIT_AT ? 'explicit' : '',
          batch.line[i],
        ].join('|'),
      );
    }
  };
  const log = await PlayLog.open(copy, { logger, onEntry: () => undefined, onRows, rowThread });
  const held = log.snapshots.texts;
  const out = {
    rows,
    batches,
    size: log.size,
    texts: Array.from({ length: held.count }, (_, n) => held.text(n)),
    position: log.position(),
    warnings: logger.lines.map((line) => line.replace(/^\S+ /, '').replace(copy, 'PATH')),
    file: await readFile(copy, 'utf8'),
  };
  await log.close();
  return out;
}

describe('reading a play log in a worker thread', () => {
  it('hands over the same rows, names, snapshots and warnings as a read on the main thread', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'melon-rows-')), 'plays.jsonl');
    await writeFile(path, logText(280_000));
    const here = await read(path, false);
    const there = await read(path, true, true);
    expect(here.rows.length).toBe(280_000);
    expect(here.batches.length).toBeGreaterThan(4);
    expect(there.rows).toEqual(here.rows);
    expect(there.batches).toEqual(here.batches);
    expect(there.size).toBe(here.size);
    expect(there.texts).toEqual(here.texts);
    expect(there.texts).toHaveLength(SNAPSHOTS);
    expect(there.position).toEqual(here.position);
    expect(there.warnings).toEqual(here.warnings);
    expect(here.warnings.length).toBeGreaterThanOrEqual(3);
    // The torn last line is cut off, the next append starts on a line of its own.
    expect(there.file).toBe(here.file);
    expect(there.file.endsWith('\n')).toBe(true);
  }, 60_000);

  it('fails the open when indexing a batch throws, and leaves the file as it was', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'melon-rows-')), 'plays.jsonl');
    const text = logText(100_000);
    await writeFile(path, text);
    const opening = PlayLog.open(path, {
      logger: createMemoryLogger(),
      onEntry: () => undefined,
      onRows: () => {
        throw new Error('no room');
      },
      rowThread: true,
    });
    await expect(opening).rejects.toThrow('no room');
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('leaves the read to the main thread when the worker fails before it delivers anything', async () => {
    const logger = createMemoryLogger();
    let batches = 0;
    const snapshots = new LogSnapshots();
    const read = await readRowsInThread({
      path: join(await mkdtemp(join(tmpdir(), 'melon-rows-')), 'gone.jsonl'),
      logger,
      startAt: 0,
      endAt: null,
      fileBytes: 0,
      snapshots,
      onRows: () => (batches += 1),
    });
    expect(read).toBeUndefined();
    expect(batches).toBe(0);
    expect(snapshots.count).toBe(0);
    expect(logger.lines).toHaveLength(1);
    // The worker's error keeps its system code, as one thrown on the main thread would.
    expect(logger.lines[0]).toMatch(/WARN play log: no worker thread could read it.* code=ENOENT$/);
  });
});
