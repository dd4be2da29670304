/**
 * The naive design the statistics bench sets beside Melon's: the whole play log in one lowdb JSON
 * document, rewritten on every play.
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { JSONFile } from 'lowdb/node';
import { Low } from 'lowdb';
import type { PlayLogEntry } from '../server/domain/play.js';
import { benchLibrary, benchPlays, USER_COUNT } from './bench-data.js';

/** The most plays the naive design is timed with (see main). */
export const NAIVE_MAX_PLAYS = 1_000_000;

/** The naive design's cost: one lowdb write (whole document, pretty-printed) of N plays, plus fsync. */
export async function naiveRewrite(plays: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'melon-naive-'));
  try {
    const library = benchLibrary();
    const entries: PlayLogEntry[] = [];
    const users = Array.from({ length: USER_COUNT }, (_, i) => `user${i}`);
    for (const entry of benchPlays(library, users, plays, Date.now())) entries.push(entry);
    const path = join(dir, 'stats.json');
    const db = new Low(new JSONFile<{ plays: PlayLogEntry[] }>(path), { plays: [] });
    db.data.plays = entries;
    const start = performance.now();
    await db.write();
    const handle = await open(path, 'r');
    await handle.sync();
    await handle.close();
    return performance.now() - start;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
