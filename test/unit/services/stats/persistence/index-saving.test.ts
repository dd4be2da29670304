import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../../../server/logger.js';
import { openStoreWithIndex } from '../../../../../server/services/stats/persistence/index-saving.js';
import { LoadingIndex } from '../../../../../server/services/stats/loading-index.js';
import { StatsIndex } from '../../../../../server/services/stats/stats-index.js';
import { openStore } from '../../../../../server/store/open-store.js';
import { decodeSavedIndex } from '../../../../../server/services/stats/persistence/saved-index.js';
import {
  readSavedPlayIndex,
  writeSavedPlayIndex,
  type SavedPlayIndex,
} from '../../../../../server/store/saved-play-index.js';
import { makeVariedPlays, statsIndexOf } from '../../../../factories/plays.js';
import { orphanFolderLock } from '../../../../support/dead-process.js';

/**
 * The stats index is read from the play log through the store and saved to plays.index by its own
 * rules; the store only keeps the files. The format and the start-up reads are in
 * test/unit/store/saved-play-index.test.ts.
 */
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function dataFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'melon-index-saving-'));
  dirs.push(dir);
  return dir;
}

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  );

function open(dataDir: string) {
  const logger = createMemoryLogger();
  const index = new StatsIndex();
  return openStoreWithIndex(dataDir, { logger, index }).then((opened) => ({ ...opened, index, logger }));
}

/** The saved index at `path`, which the test expects to be usable. */
async function usableSavedIndex(path: string): Promise<SavedPlayIndex> {
  const saved = await readSavedPlayIndex(path);
  if (saved === undefined || typeof saved === 'string') throw new Error(`no usable saved index: ${saved}`);
  return saved;
}

/**
 * Rewrites plays.index as a Melon before the snapshot columns saved it: each block in format 3 (its
 * JSON tables and its records, the log's snapshots only as the segment's texts). Whether its blocks
 * carried snapshot columns before.
 */
async function asFormat3(path: string): Promise<boolean> {
  const saved = await usableSavedIndex(path);
  const decoded = decodeSavedIndex(saved.data);
  if (decoded?.kind !== 'blocks') throw new Error('not an index of blocks');
  const parts = decoded.blocks.flatMap(({ records, table: _, ...tables }) => {
    const json = Buffer.from(JSON.stringify({ format: 3, ...tables }));
    const head = Buffer.alloc(8);
    head.writeUInt32LE(0x3358494d, 0);
    head.writeUInt32LE(json.length, 4);
    return [head, json, records];
  });
  const { count } = saved.logSnapshots;
  await writeSavedPlayIndex(path, {
    position: saved.position,
    logSnapshots: { count, bytes: saved.logSnapshots.bytes(0, count) },
    data: parts,
  });
  return decoded.blocks.every((block) => block.table !== undefined);
}

/** Opens the folder with its saved index loaded in the background; whether it fitted. */
async function loaded(dataDir: string) {
  const index = new StatsIndex({ rowsPerTurn: 10 });
  const loading = new LoadingIndex(index, () => Promise.resolve(), 0);
  const opened = await openStoreWithIndex(dataDir, { logger: createMemoryLogger(), index: loading });
  return { ...opened, index, fits: await loading.finish() };
}

function sameAnswers(index: StatsIndex, whole: StatsIndex): void {
  for (const userId of ['u0', 'u1', 'u2']) {
    expect(index.topTracks({ userId }, 0, 1000)).toEqual(whole.topTracks({ userId }, 0, 1000));
    expect(index.topArtists({ userId }, 0, 1000)).toEqual(whole.topArtists({ userId }, 0, 1000));
    expect(index.topGenres({ userId }, 0, 1000)).toEqual(whole.topGenres({ userId }, 0, 1000));
    expect(index.recentPlays({ userId }, 0, 50)).toEqual(whole.recentPlays({ userId }, 0, 50));
    expect(index.listeningTime({ userId })).toEqual(whole.listeningTime({ userId }));
  }
}

describe('saving the stats index', () => {
  it('opens an index saved with its snapshots only as texts (an older Melon), grows it, and opens it again with the same statistics', async () => {
    const dataDir = await dataFolder();
    const plays = makeVariedPlays(700);
    const first = await open(dataDir);
    await first.store.plays.appendMany(plays.slice(0, 400));
    await first.close();
    expect(await asFormat3(join(dataDir, 'plays.index'))).toBe(true);

    const second = await loaded(dataDir);
    expect(second.fits).toBe(true);
    expect(second.store.plays.replayed).toBe(0);
    sameAnswers(second.index, statsIndexOf(plays.slice(0, 400)));
    // Appended to in this layout: new tracks and names after those the older blocks intern.
    const later = plays
      .slice(400)
      .map((p, i) => ({ ...p, trackId: `${p.trackId}-later`, trackName: `Later ${i}` }));
    await second.store.plays.appendMany(later);
    await second.close();

    const third = await loaded(dataDir);
    expect(third.fits).toBe(true);
    expect(third.store.plays.replayed).toBe(0);
    sameAnswers(third.index, statsIndexOf([...plays.slice(0, 400), ...later]));
    await third.close();
  });

  it("saves the log's snapshots as columns, which load into the statistics a rebuild from the log gives", async () => {
    const dataDir = await dataFolder();
    const plays = makeVariedPlays(600);
    const first = await open(dataDir);
    await first.store.plays.appendMany(plays.slice(0, 300));
    await first.saveIndex();
    await first.store.plays.appendMany(plays.slice(300));
    await first.close();
    const saved = await usableSavedIndex(join(dataDir, 'plays.index'));
    expect(saved.data.length).toBeGreaterThan(1);
    const second = await loaded(dataDir);
    expect(second.fits).toBe(true);
    expect(second.store.plays.replayed).toBe(0);
    sameAnswers(second.index, statsIndexOf(plays));
    await second.close();
    // Every block of that file had its snapshot columns.
    expect(await asFormat3(join(dataDir, 'plays.index'))).toBe(true);
  });

  it('saves at once after a start that read over 10,000 log lines, so a crash then does not read them again', async () => {
    const dataDir = await dataFolder();
    // A log written without any index (as an older Melon or a restored backup left it).
    const bare = await openStore(dataDir, { logger: createMemoryLogger() });
    await bare.plays.appendMany(makeVariedPlays(10_050));
    await bare.close();

    const first = await open(dataDir);
    expect(first.store.plays.replayed).toBe(10_050);
    await expect.poll(() => sizeOf(join(dataDir, 'plays.index')), { timeout: 10_000 }).toBeGreaterThan(0);
    // Killed: no save at close.
    await first.store.plays.close();
    await orphanFolderLock(dataDir);

    const second = await open(dataDir);
    expect(second.store.plays.replayed).toBe(0);
    expect(second.index.size).toBe(10_050);
    await second.close();
  });

  it('drops plays.index when a save fails, and the next start rebuilds the index from the log', async () => {
    const dataDir = await dataFolder();
    const indexPath = join(dataDir, 'plays.index');
    const plays = makeVariedPlays(55);
    const first = await open(dataDir);
    await first.store.plays.appendMany(plays.slice(0, 40));
    await first.saveIndex();
    // Changed behind the server's back: the next segment cannot follow on.
    await appendFile(indexPath, 'x');
    await first.store.plays.appendMany(plays.slice(40, 50));
    await expect(first.saveIndex()).rejects.toThrow(/changed behind/);
    expect(await sizeOf(indexPath)).toBe(0);
    // Later saves, the one at close included, do not write a file missing what the failed one took.
    await first.store.plays.appendMany(plays.slice(50));
    await first.close();
    expect(await sizeOf(indexPath)).toBe(0);

    const second = await open(dataDir);
    expect(second.store.plays.replayed).toBe(55);
    expect(second.index.size).toBe(55);
    await second.close();
    expect(await sizeOf(indexPath)).toBeGreaterThan(0);
  });

  it('loads a saved index in the background and then the log lines after it, as reading the whole log', async () => {
    const dataDir = await dataFolder();
    const plays = makeVariedPlays(800);
    const first = await open(dataDir);
    await first.store.plays.appendMany(plays.slice(0, 500));
    await first.close();
    // Logs written after the save (a server killed before its next one), with snapshots of their own.
    const later = plays.slice(500).map((p) => ({ ...p, trackId: `${p.trackId}-later` }));
    const bare = await openStore(dataDir, { logger: createMemoryLogger() });
    await bare.plays.appendMany(later);
    await bare.close();

    const index = new StatsIndex({ rowsPerTurn: 10 });
    const loading = new LoadingIndex(index, () => Promise.resolve(), 0);
    const second = await openStoreWithIndex(dataDir, { logger: createMemoryLogger(), index: loading });
    expect(second.store.plays.replayed).toBe(300);
    expect(loading.ready).toBe(false);
    await loading.finish();
    const whole = statsIndexOf([...plays.slice(0, 500), ...later]);
    for (const userId of ['u0', 'u1', 'u2']) {
      expect(index.topTracks({ userId }, 0, 1000)).toEqual(whole.topTracks({ userId }, 0, 1000));
      expect(index.listeningTime({ userId })).toEqual(whole.listeningTime({ userId }));
    }
    await second.close();
  });

  it('repairs a saved index whose snapshot text was damaged: rebuilt once, loaded as it is after', async () => {
    const dataDir = await dataFolder();
    const first = await open(dataDir);
    await first.store.plays.appendMany(makeVariedPlays(300));
    await first.close();
    const path = join(dataDir, 'plays.index');
    const file = await readFile(path);
    // A field name changed inside the first snapshot text: the text no longer reads as a snapshot.
    file.write('trackIx', file.indexOf('trackId'), 'latin1');
    await writeFile(path, file);

    const fits: boolean[] = [];
    for (let start = 0; start < 2; start++) {
      const loading = new LoadingIndex(new StatsIndex(), () => Promise.resolve());
      const opened = await openStoreWithIndex(dataDir, { logger: createMemoryLogger(), index: loading });
      fits.push(await loading.finish());
      if (!fits.at(-1)) await opened.rebuildIndex();
      await opened.close();
    }
    expect(fits).toEqual([false, true]);
  });
});
