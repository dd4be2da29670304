import { describe, expect, it } from 'vitest';
import {
  ROW_EXPLICIT_AT,
  ROW_SKIP,
  type LoggedRows,
  type PlayLogEntry,
  type PlaySnapshot,
} from '../../../server/domain/play.js';
import { decodePlayLine, playLine, type PlayLine } from '../../../server/store/play-log-codec.js';
import { PlayRowReader } from '../../../server/store/play-log-rows.js';

/** What a reader handed over, row by row, with its names resolved: a decoded line but its id. */
type ReadRow = Omit<PlayLine, 'id'> & { line: number };

const SNAPSHOT: PlaySnapshot = {
  trackId: 't1',
  albumId: null,
  artistIds: [],
  genres: [],
  durationMs: 1,
  trackName: null,
  albumName: null,
  artistNames: [],
};

/** A reader of a log defining `defined` snapshots, all readable but those in `unreadable`. */
function reader(defined = 1_000, unreadable: number[] = []) {
  const rows: ReadRow[] = [];
  const batches: number[] = [];
  const snapshots = {
    count: defined,
    at: (n: number) => (n < snapshots.count && !unreadable.includes(n) ? SNAPSHOT : undefined),
  };
  const r: PlayRowReader = new PlayRowReader(snapshots, (batch: LoggedRows) => {
    batches.push(batch.count);
    for (let i = 0; i < batch.count; i += 1) {
      const kind = batch.kind[i]!;
      rows.push({
        at: batch.at[i]!,
        userId: r.users.values[batch.user[i]!]!,
        snapshot: batch.snapshot[i]!,
        device: batch.device[i] === 0 ? null : r.devices.values[batch.device[i]! - 1]!,
        type: kind & ROW_SKIP ? 'skip' : 'play',
        explicitAt: (kind & ROW_EXPLICIT_AT) !== 0,
        line: batch.line[i]!,
      });
    }
  });
  return { r, rows, batches, snapshots };
}

const entry = (overrides: Partial<PlayLogEntry> = {}): PlayLogEntry => ({
  id: 'Ab3_-x9QzKkPq1w2e3r4tA',
  userId: 'user-1',
  trackId: 't1',
  albumId: null,
  artistIds: [],
  genres: [],
  durationMs: 1,
  device: 'Phone',
  type: 'play',
  at: 1_700_000_000_000,
  explicitAt: false,
  trackName: null,
  albumName: null,
  artistNames: [],
  ...overrides,
});

/** Lines as this server writes them, and lines it never writes but may find (by hand, or torn). */
const LINES = [
  playLine(entry(), 3),
  playLine(entry({ device: null, type: 'skip' }), 0),
  playLine(entry({ explicitAt: true }), 12),
  playLine(entry({ explicitAt: true, type: 'skip', at: -5 }), 7),
  playLine(entry({ device: 'Küchenradio ♫', userId: 'ünï' }), 1),
  playLine(entry({ device: 'say "hi"', id: 'back\\slash' }), 2),
  playLine(entry({ userId: 'tab\there' }), 2),
  '[1700000000000,"user-1",3,"Phone","p","id"]',
  '[1700000000000.5,"user-1",3,"Phone","p","id"]',
  '[1e12,"user-1",3,"Phone","p","id"]',
  '[-0,"user-1",3,"Phone","p","id"]',
  '[007,"user-1",3,"Phone","p","id"]',
  '[1234567890123456,"user-1",3,"Phone","p","id"]',
  '[ 1,"user-1",3,"Phone","p","id"]',
  '[1,"user\\u002d1",3,"Phone","p","id"]',
  '[1,"user-1",3,"Phone","p","\\u0069d"]',
  '[1,"user-1",3,null,"P","id"]',
  '[1,"user-1",3,nul,"p","id"]',
  '[1,"user-1",3,nope,"p","id"]',
  '[1,"user-1",-3,"Phone","p","id"]',
  '[1,"user-1",3.5,"Phone","p","id"]',
  '[1,"user-1",3,"Phone","x","id"]',
  '[1,"user-1",3,"Phone","pp","id"]',
  '[1,"user-1",3,"Phone","p"]',
  '[1,"user-1",3,"Phone","p","id",7]',
  '[1,"user-1",3,"Phone","p",7]',
  '[1,7,3,"Phone","p","id"]',
  '[1,"user-1",3,"Phone","p","id"',
  '[1,"user-1",3,"Phone","p","id]',
  '[1,"user-1,3,"Phone","p","id"]',
  '{"snapshot":0}',
  '[]',
  'garbage',
];

describe('reading play log lines as rows', () => {
  it('reads every line decodePlayLine reads, to the same fields, and refuses the lines it refuses', () => {
    const { r, rows } = reader();
    const expected: ReadRow[] = [];
    let offset = 100;
    for (const text of LINES) {
      const buf = Buffer.from(text + '\n');
      const decoded = decodePlayLine(buf, 0, buf.length - 1);
      const read = r.read(buf, 0, buf.length - 1, offset);
      expect([text, read]).toEqual([text, decoded !== undefined]);
      if (decoded) {
        const { at, userId, snapshot, device, type, explicitAt } = decoded;
        expected.push({ at, userId, snapshot, device, type, explicitAt, line: offset });
      }
      offset += buf.length;
    }
    r.flush();
    expect(rows).toEqual(expected);
    expect(expected.length).toBeGreaterThan(10);
  });

  it('gives the same user and device the same number, whether read from bytes or through JSON.parse', () => {
    const { r, rows } = reader();
    for (const text of [
      '[1,"user-1",0,"Phone","p","a"]',
      '[2,"user\\u002d1",0,"Ph\\u006fne","p","b"]',
      '[3,"user-1",0,"Car","p","c"]',
    ]) {
      const buf = Buffer.from(text);
      expect(r.read(buf, 0, buf.length, 0)).toBe(true);
    }
    r.flush();
    expect(rows.map((row) => [row.userId, row.device])).toEqual([
      ['user-1', 'Phone'],
      ['user-1', 'Phone'],
      ['user-1', 'Car'],
    ]);
    expect(r.users.values).toEqual(['user-1']);
    expect(r.devices.values).toEqual(['Phone', 'Car']);
  });

  it('refuses a log of a snapshot not defined before it, and keeps no row of one whose text does not read', () => {
    const { r, rows, snapshots } = reader(5, [6]);
    const line = (n: number) => Buffer.from(playLine(entry(), n));
    expect(r.read(line(5), 0, line(5).length - 1, 0)).toBe(false);
    snapshots.count = 7;
    expect(r.read(line(5), 0, line(5).length - 1, 0)).toBe(true);
    // A whole line (never cut off as torn), but no row: the saved index it came from is rebuilt.
    expect(r.read(line(6), 0, line(6).length - 1, 0)).toBe(true);
    expect(r.flush()).toBe(1);
    expect(rows.map((row) => row.snapshot)).toEqual([5]);
  });

  it('hands the rows over in file order, a full batch at a time, and the rest when flushed', () => {
    const { r, rows, batches } = reader(4);
    const count = 70_000;
    for (let i = 0; i < count; i += 1) {
      const buf = Buffer.from(playLine(entry({ at: i, userId: `u${i % 3}` }), i % 4));
      r.read(buf, 0, buf.length - 1, i * 10);
    }
    expect(batches).toEqual([65_536]);
    r.flush();
    expect(batches).toEqual([65_536, count - 65_536]);
    expect(rows.map((row) => row.at)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(rows[69_999]).toMatchObject({ userId: 'u0', snapshot: 3, line: 699_990 });
    expect(r.users.values).toEqual(['u0', 'u1', 'u2']);
  });

  it('estimates the rows to come from the rows read, not from lines of other kinds between them', () => {
    // As a log is written: most snapshot lines early, among the first rows, each longer than a row.
    const row = (i: number) => Buffer.from(playLine(entry({ at: 1_700_000_000_000 + i }), 0));
    const rowBytes = row(0).length + 1;
    const snapshotLineBytes = 400;
    const rowsInAll = 200_000;
    const early = 65_536;
    const fileBytes = rowsInAll * rowBytes + early * snapshotLineBytes;
    const toCome: number[] = [];
    const r = new PlayRowReader(
      { count: 1, at: () => SNAPSHOT },
      (batch) => toCome.push(batch.toCome),
      fileBytes,
    );
    let offset = 0;
    for (let i = 0; i < early; i += 1) {
      offset += snapshotLineBytes;
      r.read(row(i), 0, rowBytes - 1, offset);
      offset += rowBytes;
    }
    // The first batch's estimate: its rows times (1 + toCome) is the whole log's.
    expect(early * (1 + toCome[0]!)).toBeCloseTo(rowsInAll, -2);
  });
});
