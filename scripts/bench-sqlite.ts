/**
 * Melon's statistics engine beside SQLite, in-process, on the same synthetic plays
 * (`npm run bench -- --compare sqlite [--plays N]`): the design a peer like Navidrome uses, with
 * better-sqlite3 (a dev dependency, loaded only here), a covering index on (user, at, …) for ranges
 * and a summary table per (user, track) with a rank index for all-time lists. Both answer the same
 * reads; the table shows each one's p50/p99 and the ratio. Prints a table, then one JSON line.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StatsIndex } from '../server/services/stats/stats-index.js';
import { PlayLog } from '../server/store/play-log.js';
import type { PlayLogEntry } from '../server/domain/play.js';
import { benchLibrary, benchPlays, DAY_MS, quietLogger, USER_COUNT, YEAR_MS } from './bench-data.js';

/** The little of better-sqlite3 used here (it ships no types; @types would be one more dependency). */
interface Statement {
  run(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}
interface Database {
  exec(sql: string): void;
  pragma(sql: string): unknown;
  prepare(sql: string): Statement;
  transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
  close(): void;
}

interface Timing {
  p50: number;
  p99: number;
}

function timeSync(runs: number, fn: (i: number) => void): Timing {
  for (let i = 0; i < 10; i += 1) fn(i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    fn(i);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)]!;
  return { p50: at(50), p99: at(99) };
}

async function timeAsync(runs: number, fn: (i: number) => Promise<void>): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)]!;
  return { p50: at(50), p99: at(99) };
}

const SCHEMA = `
  PRAGMA journal_mode = WAL;
  PRAGMA synchronous = FULL;
  CREATE TABLE plays (id TEXT NOT NULL, user INTEGER NOT NULL, track INTEGER NOT NULL, album INTEGER,
    at INTEGER NOT NULL, duration INTEGER NOT NULL, device TEXT, skip INTEGER NOT NULL);
  CREATE TABLE play_artists (play INTEGER NOT NULL, artist INTEGER NOT NULL);
  -- Covering: a ranged top list or sum reads the index only.
  CREATE INDEX plays_range ON plays (user, at, skip, track, duration, album);
  CREATE TABLE track_totals (user INTEGER NOT NULL, track INTEGER NOT NULL, plays INTEGER NOT NULL,
    skips INTEGER NOT NULL, ms INTEGER NOT NULL, last INTEGER NOT NULL, PRIMARY KEY (user, track)) WITHOUT ROWID;
  CREATE INDEX track_totals_rank ON track_totals (user, plays DESC, last DESC, track);
`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const plays = Number(args[args.indexOf('--plays') + 1] || 1_000_000);
  // A name in a variable: its types are not needed (see Database above), and it stays optional.
  const sqliteModule = 'better-sqlite3';
  const { default: Sqlite } = (await import(sqliteModule)) as {
    default: new (path: string) => Database;
  };
  const dir = await mkdtemp(join(tmpdir(), 'melon-compare-'));
  try {
    const library = benchLibrary();
    const users = Array.from({ length: USER_COUNT }, (_, i) => `user${i}`);
    const endAt = Date.now();
    const trackNo = new Map(library.tracks.map((t, i) => [t.id, i]));
    const albumNo = new Map(library.albums.map((a, i) => [a.id, i]));
    const artistNo = new Map(library.artists.map((a, i) => [a.id, i]));

    console.error(`writing ${plays} plays to a Melon log and to SQLite ...`);
    const logPath = join(dir, 'plays.jsonl');
    const writer = await PlayLog.open(logPath, { logger: quietLogger(), onEntry: () => undefined });
    const db = new Sqlite(join(dir, 'plays.db'));
    db.exec(SCHEMA);
    const insert = db.prepare('INSERT INTO plays VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const insertArtist = db.prepare('INSERT INTO play_artists VALUES (?, ?)');
    const upsert = db.prepare(`INSERT INTO track_totals VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (user, track) DO UPDATE SET plays = plays + excluded.plays, skips = skips + excluded.skips,
      ms = ms + excluded.ms, last = max(last, excluded.last)`);
    const addToSqlite = (e: PlayLogEntry) => {
      const skip = e.type === 'skip' ? 1 : 0;
      const user = users.indexOf(e.userId);
      const track = trackNo.get(e.trackId)!;
      const result = insert.run(
        e.id,
        user,
        track,
        albumNo.get(e.albumId ?? '') ?? null,
        e.at,
        e.durationMs,
        e.device,
        skip,
      ) as {
        lastInsertRowid: number | bigint;
      };
      for (const a of e.artistIds) insertArtist.run(result.lastInsertRowid, artistNo.get(a));
      upsert.run(user, track, 1 - skip, skip, skip ? 0 : e.durationMs, skip ? 0 : e.at);
    };
    const addMany = db.transaction((entries: PlayLogEntry[]) => entries.forEach(addToSqlite));
    let batch: PlayLogEntry[] = [];
    let firstAt = Infinity;
    for (const entry of benchPlays(library, users, plays, endAt)) {
      firstAt = Math.min(firstAt, entry.at);
      batch.push(entry);
      if (batch.length === 20_000) {
        addMany(batch);
        await writer.appendMany(batch);
        batch = [];
      }
    }
    addMany(batch);
    await writer.appendMany(batch);
    await writer.close();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.exec('ANALYZE');

    console.error('starting Melon from the raw log ...');
    const index = new StatsIndex();
    const rawStart = performance.now();
    const log = await PlayLog.open(logPath, {
      logger: quietLogger(),
      onEntry: (e, s, line) => index.add(e, s, line),
    });
    index.settle();
    index.readIdsFrom(log);
    const rawStartMs = performance.now() - rawStart;

    const user = users[0]!;
    const u = users.indexOf(user);
    const month = { from: endAt - 5 * YEAR_MS, to: endAt - 5 * YEAR_MS + 30 * DAY_MS };
    const ranges = {
      'one month': month,
      'last 5 years': { from: endAt - 5 * YEAR_MS, to: endAt },
      'all but the first day': { from: firstAt + DAY_MS, to: endAt },
    };
    const sqlTop =
      db.prepare(`SELECT track, count(*) AS plays, sum(duration) AS ms, max(at) AS last FROM plays
      WHERE user = ? AND at BETWEEN ? AND ? AND skip = 0 GROUP BY track ORDER BY plays DESC, last DESC, track LIMIT 100`);
    const sqlListening = db.prepare(
      'SELECT count(*) AS plays, sum(duration) AS ms FROM plays WHERE user = ? AND at BETWEEN ? AND ? AND skip = 0',
    );
    const sqlAllTime = db.prepare(
      'SELECT track, plays, ms, last FROM track_totals WHERE user = ? AND plays > 0 ORDER BY plays DESC, last DESC, track LIMIT 100',
    );
    const rows: Array<[string, Timing, Timing]> = [];
    for (const [name, r] of Object.entries(ranges)) {
      rows.push([
        `top-100 tracks, ${name}`,
        timeSync(200, () => void index.topTracks({ userId: user, from: r.from, to: r.to }, 0, 100)),
        timeSync(name === 'one month' ? 200 : 20, () => void sqlTop.all(u, r.from, r.to)),
      ]);
    }
    rows.push([
      'top-100 tracks, all time',
      timeSync(200, () => void index.topTracks({ userId: user }, 0, 100)),
      timeSync(200, () => void sqlAllTime.all(u)),
    ]);
    rows.push([
      'listening time, one month',
      timeSync(200, () => void index.listeningTime({ userId: user, ...month })),
      timeSync(200, () => void sqlListening.get(u, month.from, month.to)),
    ]);

    // One durable log at a time: Melon's append (write + fdatasync) against an SQLite transaction
    // (insert, artists, summary upsert) committed with synchronous=FULL.
    const fresh = [...benchPlays(library, users, 200, endAt + DAY_MS, 9)];
    const melonLog = await timeAsync(fresh.length, (i) => log.append(fresh[i]!));
    const addOne = db.transaction((e: PlayLogEntry) => addToSqlite(e));
    const sqliteLog = await timeAsync(fresh.length, (i) => {
      addOne(fresh[i]!);
      return Promise.resolve();
    });
    rows.push(['log-play, durable', melonLog, sqliteLog]);
    await log.close();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const melonDisk =
      (await stat(logPath)).size + index.takeUnsaved().reduce((sum, part) => sum + part.byteLength, 0);
    const sqliteDisk = (await stat(join(dir, 'plays.db'))).size;

    console.log(`\nMelon beside SQLite (better-sqlite3), in-process: ${plays} plays, ${USER_COUNT} users\n`);
    console.log(
      `${'read'.padEnd(34)}${'Melon p50'.padStart(11)}${'p99'.padStart(8)}${'SQLite p50'.padStart(12)}${'p99'.padStart(8)}${'ratio p50'.padStart(11)}`,
    );
    const out: Record<string, number> = { plays, melonRawStartMs: Math.round(rawStartMs) };
    for (const [name, melon, sqlite] of rows) {
      console.log(
        `${name.padEnd(34)}${melon.p50.toFixed(3).padStart(11)}${melon.p99.toFixed(3).padStart(8)}${sqlite.p50.toFixed(3).padStart(12)}${sqlite.p99.toFixed(3).padStart(8)}${(sqlite.p50 / melon.p50).toFixed(1).padStart(10)}×`,
      );
      const key = name
        .replace(/[^a-z0-9]+/gi, ' ')
        .trim()
        .replace(/ (\w)/g, (_, c: string) => c.toUpperCase());
      out[`${key}MelonP50Ms`] = Math.round(melon.p50 * 1000) / 1000;
      out[`${key}SqliteP50Ms`] = Math.round(sqlite.p50 * 1000) / 1000;
    }
    console.log(
      `${'disk bytes per play'.padEnd(34)}${(melonDisk / plays).toFixed(0).padStart(19)}${(sqliteDisk / plays).toFixed(0).padStart(20)}\n`,
    );
    out.melonDiskBytesPerPlay = Math.round(melonDisk / plays);
    out.sqliteDiskBytesPerPlay = Math.round(sqliteDisk / plays);
    console.log(JSON.stringify(out));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
