import { appendFile, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../../server/logger.js';
import { PlayLog } from '../../../server/store/play-log.js';
import { LINE_WARNINGS } from '../../../server/store/play-log-reader.js';
import type { PlayLogEntry } from '../../../server/domain/play.js';

const fresh = async () => join(await mkdtemp(join(tmpdir(), 'melon-plays-')), 'plays.jsonl');

function entry(i: number, overrides: Partial<PlayLogEntry> = {}): PlayLogEntry {
  return {
    id: `log${i}`,
    userId: 'u1',
    trackId: `t${i % 7}`,
    albumId: i % 3 === 0 ? null : 'al1',
    artistIds: ['ar1'],
    genres: ['Rock', 'Ünïcödé ♫'],
    durationMs: 1000 + i,
    device: i % 2 ? 'Phone' : null,
    type: i % 5 === 0 ? 'skip' : 'play',
    at: Date.UTC(2024, 0, 1) + i,
    explicitAt: i % 4 === 0,
    trackName: `Track ${i}`,
    albumName: i % 3 === 0 ? null : 'Album',
    artistNames: ['Artist'],
    ...overrides,
  };
}

async function load(path: string) {
  const logger = createMemoryLogger();
  const entries: PlayLogEntry[] = [];
  const log = await PlayLog.open(path, { logger, onEntry: (e) => entries.push(e) });
  return { log, entries, logger };
}

describe('PlayLog', () => {
  it('creates the file owner-only with a schema header', async () => {
    const path = await fresh();
    const { log } = await load(path);
    await log.close();
    expect(await readFile(path, 'utf8')).toBe('{"schemaVersion":2}\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('reads each log id back from where its line starts, as appended and as read at open', async () => {
    const path = await fresh();
    const appended: Array<[string, number]> = [];
    const log = await PlayLog.open(path, {
      logger: createMemoryLogger(),
      onEntry: (e, _snapshot, line) => appended.push([e.id, line]),
    });
    // A line longer than the first read (a long device name of 4-byte characters), and new
    // snapshots defined between the log lines of one batch.
    const long = entry(1, { id: 'long-line', device: '🎵'.repeat(128) });
    await log.append(entry(0));
    await log.appendMany([long, entry(2, { trackId: 'new track' }), entry(3)]);
    expect(appended.map(([id]) => id)).toEqual(['log0', 'long-line', 'log2', 'log3']);
    for (const [id, line] of appended) expect(log.idAt(line)).toBe(id);
    expect(() => log.idAt(1)).toThrow(/no log line/);
    await log.close();

    const read: Array<[string, number]> = [];
    const again = await PlayLog.open(path, {
      logger: createMemoryLogger(),
      onEntry: (e, _snapshot, line) => read.push([e.id, line]),
    });
    expect(read).toEqual(appended);
    for (const [id, line] of read) expect(again.idAt(line)).toBe(id);
    await again.close();
  });

  it('gives back every appended entry on reopen, in order', async () => {
    const path = await fresh();
    const { log } = await load(path);
    const written = Array.from({ length: 50 }, (_, i) => entry(i));
    for (const e of written.slice(0, 10)) await log.append(e);
    await log.appendMany(written.slice(10));
    expect(log.size).toBe(50);
    await log.close();
    const again = await load(path);
    expect(again.entries).toEqual(written);
    expect(again.log.size).toBe(50);
    expect(again.logger.lines.filter((l) => l.includes('WARN'))).toEqual([]);
    await again.log.close();
  });

  it('groups concurrent appends into fewer fsyncs, and loses none', async () => {
    const path = await fresh();
    const { log } = await load(path);
    const written = Array.from({ length: 200 }, (_, i) => entry(i));
    await Promise.all(written.map((e) => log.append(e)));
    expect(log.batches).toBeLessThan(200);
    expect(log.batches).toBeGreaterThanOrEqual(1);
    await log.close();
    const again = await load(path);
    expect(again.entries.map((e) => e.id).sort()).toEqual(written.map((e) => e.id).sort());
    await again.log.close();
  });

  it('reads its entries again as rows, as a start does, leaving out those appended meanwhile', async () => {
    const path = await fresh();
    const { log } = await load(path);
    await log.appendMany([entry(1), entry(2), entry(3)]);
    const read: Array<[number, string, string | null]> = [];
    const replaying = log.replay(
      () => expect.unreachable('the entries come as rows'),
      (rows, names) => {
        for (let i = 0; i < rows.count; i += 1) {
          const device = rows.device[i]! > 0 ? names.devices[rows.device[i]! - 1]! : null;
          read.push([rows.at[i]!, names.users[rows.user[i]!]!, device]);
          expect(names.snapshot(rows.snapshot[i]!)?.trackId).toBe(`t${i + 1}`);
        }
      },
    );
    await log.append(entry(4));
    await replaying;
    expect(read).toEqual([1, 2, 3].map((i) => [entry(i).at, 'u1', entry(i).device]));
    await log.close();
  });

  it('reads a log larger than one read chunk', async () => {
    const path = await fresh();
    const { log } = await load(path);
    const big = 'x'.repeat(5000);
    const written = Array.from({ length: 4000 }, (_, i) => entry(i, { trackName: `${big}${i}` }));
    await log.appendMany(written);
    await log.close();
    const again = await load(path);
    expect(again.entries).toHaveLength(4000);
    expect(again.entries[3999]).toEqual(written[3999]);
    await again.log.close();
  });

  for (const [name, garbage] of [
    ['half a JSON line', JSON.stringify(entry(99)).slice(0, 40)],
    ['garbage without a newline', '%%%not json'],
    ['a whole entry without its newline', JSON.stringify(entry(99))],
    ['an unparseable terminated line', '{"id":\n'],
  ] as const) {
    it(`skips a torn last line (${name}) with a warning, and appends after it cleanly`, async () => {
      const path = await fresh();
      const first = await load(path);
      await first.log.appendMany([entry(1), entry(2)]);
      await first.log.close();
      const tornAt = (await stat(path)).size;
      await appendFile(path, garbage);

      const second = await load(path);
      expect(second.entries.map((e) => e.id)).toEqual(['log1', 'log2']);
      const torn = second.logger.lines.filter((l) => l.includes('WARN play log: skipped a torn last line'));
      expect(torn).toHaveLength(1);
      expect(torn[0]).toContain(`byte=${tornAt}`);
      await second.log.append(entry(3));
      await second.log.close();

      const third = await load(path);
      expect(third.entries.map((e) => e.id)).toEqual(['log1', 'log2', 'log3']);
      expect(third.logger.lines.filter((l) => l.includes('WARN'))).toEqual([]);
      await third.log.close();
    });
  }

  it('skips an unreadable line in the middle with a warning and keeps the rest', async () => {
    const path = await fresh();
    const lines = [
      '{"schemaVersion":1}',
      JSON.stringify(entry(1)),
      'garbage',
      JSON.stringify({ ...entry(2), type: 'bogus' }),
      JSON.stringify(entry(3)),
    ];
    await writeFile(path, lines.join('\n') + '\n');
    const { log, entries, logger } = await load(path);
    expect(entries.map((e) => e.id)).toEqual(['log1', 'log3']);
    expect(log.size).toBe(2);
    // Named by the byte where they start in the file they are in (the old format's, kept beside the
    // upgraded log), though the read began after the header.
    const kept = await readFile(join(dirname(path), 'plays.v1.jsonl'));
    const named = logger.lines.filter((l) => l.includes('skipped an unreadable line'));
    expect(named.map((l) => /path=(\S+) byte=(\d+)/.exec(l)?.slice(1))).toEqual(
      [lines[2]!, lines[3]!].map((line) => [
        join(dirname(path), 'plays.v1.jsonl'),
        String(kept.indexOf(line)),
      ]),
    );
    expect(logger.lines.some((l) => l.includes('torn'))).toBe(false);
    await log.close();
  });

  it('names the first unreadable lines and counts the rest in one warning', async () => {
    const path = await fresh();
    const garbage = Array.from({ length: 1_000 }, (_, i) => `garbage ${i}`);
    const lines = ['{"schemaVersion":1}', JSON.stringify(entry(1)), ...garbage, JSON.stringify(entry(2))];
    await writeFile(path, lines.join('\n') + '\n');
    const { log, entries, logger } = await load(path);
    expect(entries.map((e) => e.id)).toEqual(['log1', 'log2']);
    const named = logger.lines.filter((l) => l.includes('skipped an unreadable line'));
    expect(named).toHaveLength(LINE_WARNINGS);
    const rest = logger.lines.filter((l) => l.includes('skipped more unreadable lines'));
    expect(rest).toHaveLength(1);
    expect(rest[0]).toContain(`lines=${1_000 - LINE_WARNINGS}`);
    await log.close();
  });

  it('refuses, and leaves alone, a file without a header line', async () => {
    const path = await fresh();
    const text = JSON.stringify(entry(1, { trackName: 'x'.repeat(300) })) + '\n';
    await writeFile(path, text);
    await expect(load(path)).rejects.toThrow(/header/);
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('refuses a log written in a newer format', async () => {
    const path = await fresh();
    await writeFile(path, '{"schemaVersion":3}\n');
    await expect(load(path)).rejects.toThrow(/schema/);
  });

  it('rejects every append of a failed write and stays usable', async () => {
    const path = await fresh();
    const { log } = await load(path);
    await log.append(entry(1));
    const handle = (log as unknown as { handle: { datasync: () => Promise<void> } }).handle;
    const spy = vi.spyOn(handle, 'datasync').mockRejectedValueOnce(new Error('disk full'));
    const failed = await Promise.allSettled([log.append(entry(2)), log.append(entry(3))]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    spy.mockRestore();
    await log.append(entry(4));
    await log.close();
    const again = await load(path);
    expect(again.entries.map((e) => e.id)).toEqual(['log1', 'log4']);
    await again.log.close();
  });
});
