/**
 * The saved play index grows by a segment per save. Saved three times, then more plays written and
 * the process killed with SIGKILL (no save at stop): the next start loads the saved segments, reads
 * only the log lines after them, and answers every read as an index rebuilt from the whole log.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../server/logger.js';
import type { StatsFilter } from '../../server/services/stats/reads/results.js';
import { openStoreWithIndex } from '../../server/services/stats/persistence/index-saving.js';
import { StatsIndex } from '../../server/services/stats/stats-index.js';
import { PlayLog } from '../../server/store/play-log.js';

const SAVES = 3;
const PER_SAVE = 40;
const UNSAVED = 25;
const WRITER = fileURLToPath(new URL('../support/play-index-writer.ts', import.meta.url));
const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Every read the stats API makes, for each user, over all time, a range and a device. */
function answers(index: StatsIndex) {
  const from = Date.UTC(2024, 0, 1);
  return ['u0', 'u1', 'u2'].flatMap((userId) =>
    [
      { userId },
      { userId, device: 'phone' },
      { userId, from: from + 30 * 60_000, to: from + 3 * 3600_000 },
    ].map((f: StatsFilter) => ({
      time: index.listeningTime(f),
      tracks: index.topTracks(f, 0, 50),
      albums: index.topAlbums(f, 0, 50),
      artists: index.topArtists(f, 0, 50),
      genres: index.topGenres(f, 0, 50),
      recent: index.recentPlays(f, 0, 200),
      recentAlbums: index.recentAlbums(f, 0, 50),
      activity: index.activity({ ...f, from, to: from + 4 * 3600_000 }, 'day', 10),
    })),
  );
}

/** Runs the writer until its unsaved plays are durable, then kills it with SIGKILL. */
function writeThenKill(dataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const counts = [SAVES, PER_SAVE, UNSAVED].map(String);
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dataDir, ...counts], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (chunk.includes('ready')) child.kill('SIGKILL');
    });
    child.once('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`the writer exited with ${code}`)),
    );
  });
}

describe('saved play index after kill -9', () => {
  it('loads the saved segments, reads the rest of the log, and answers as a rebuild', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'melon-index-kill9-'));
    dirs.push(dataDir);
    await writeThenKill(dataDir);

    const index = new StatsIndex();
    const indexed = await openStoreWithIndex(dataDir, { logger: createMemoryLogger(), index });
    const { store } = indexed;
    try {
      expect(store.plays.replayed).toBe(UNSAVED);
      expect(index.size).toBe(SAVES * PER_SAVE + UNSAVED);
      const rebuilt = new StatsIndex();
      const log = await PlayLog.open(join(dataDir, 'plays.jsonl'), {
        logger: createMemoryLogger(),
        onEntry: (e) => rebuilt.add(e),
      });
      await log.close();
      expect(answers(index)).toEqual(answers(rebuilt));
      for (let t = 0; t < 20; t += 1)
        expect(index.latestSnapshotOfTrack(`t${t}`)).toEqual(rebuilt.latestSnapshotOfTrack(`t${t}`));
    } finally {
      await indexed.close();
    }
  });
});
