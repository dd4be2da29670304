import { appendFile, copyFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { PlayLogEntry } from '../../../../server/domain/play.js';
import { createMemoryLogger } from '../../../../server/logger.js';
import type { Listener } from '../../../../server/services/stats/listener.js';
import { StatsIndex } from '../../../../server/services/stats/stats-index.js';
import { PlayLog } from '../../../../server/store/play-log.js';
import { makeVariedPlays, playLog } from '../../../factories/plays.js';
import { differences } from '../../../support/same-state.js';
import { tempDirPerFile } from '../../../support/temp-dir.js';

const dir = tempDirPerFile('melon-index-rows-');

/**
 * What only building from rows keeps (its numbering of the log's names, its scratch columns), and
 * the records of the next save, which differ in spare room only: compared by the bytes it writes.
 */
const IGNORED = ['known', 'scratch', 'unsaved'];

/**
 * A play log of several users over more than one batch of rows: a heavy listener and another in
 * time order, varied plays (out of order, skips, devices differing in case, odd ids), lines only
 * JSON.parse reads (escapes, a time with a fraction), unreadable lines in the middle, plays far in
 * the past (an import), and a torn last line.
 */
async function writeLog(name: string, plays: number): Promise<string> {
  const path = dir.path(name);
  const first = await PlayLog.open(path, { logger: createMemoryLogger(), onEntry: () => undefined });
  const T0 = Date.UTC(2023, 0, 1);
  const inOrder = Array.from({ length: plays }, (_, i) =>
    playLog({
      userId: i % 10 === 9 ? 'u1' : 'u0',
      trackId: `t${(i * 7) % 40}`,
      at: T0 + i * 1000 - (i % 3),
      device: ['Phone', null, 'phone', 'Car'][i % 4]!,
      type: i % 7 === 0 ? 'skip' : 'play',
      explicitAt: i % 5 === 0,
    }),
  );
  await first.appendMany([...inOrder, ...makeVariedPlays(1000)]);
  await first.close();
  await appendFile(
    path,
    [
      '[1704067200000,"u\\u0031",0,"Ph\\u006fne","p","escaped"]',
      '[1704067200000.5,"u2",1,"Küchenradio ♫","S","fraction"]',
      'garbage',
      '[1704067200000,"u1",99999,null,"p","snapshot not defined"]',
      '[1704067200001,"u9",2,"car","P","a new user"]',
      '',
    ].join('\n'),
  );
  const second = await PlayLog.open(path, { logger: createMemoryLogger(), onEntry: () => undefined });
  const imported: PlayLogEntry[] = Array.from({ length: 3000 }, (_, i) =>
    playLog({
      userId: 'u0',
      trackId: `t${i % 40}`,
      at: T0 - (i % 500) * 60_000,
      device: i % 2 ? 'Car' : null,
    }),
  );
  const later = makeVariedPlays(500).map((p) => ({ ...p, userId: 'u3', at: p.at + 365 * 86_400_000 }));
  await second.appendMany([...imported, ...later]);
  await second.close();
  await appendFile(path, '[1704067200002,"u1",0,null,"p","torn');
  return path;
}

/** Each listener's row columns cut to their rows: the spare room after them is not content. */
function withoutSpareRows(index: StatsIndex): StatsIndex {
  const { listeners } = index as unknown as { listeners: Array<Listener | undefined> };
  for (const u of listeners.map((l) => l?.rows)) {
    if (!u) continue;
    expect(u.at.length).toBeGreaterThanOrEqual(u.n);
    u.at = u.at.slice(0, u.n);
    u.snap = u.snap.slice(0, u.n);
    u.device = u.device.slice(0, u.n);
    u.flags = u.flags.slice(0, u.n);
    u.ref = u.ref.slice(0, u.n);
  }
  // The newest log per snapshot, with room for every snapshot defined when the rows came.
  const { latest, tables } = index as unknown as {
    latest: { snapshotAt: Float64Array; snapshotUser: Int32Array };
    tables: { snapshots: { count: number } };
  };
  const count = tables.snapshots.count;
  expect(latest.snapshotAt.length).toBeGreaterThanOrEqual(count);
  latest.snapshotAt = latest.snapshotAt.slice(0, count);
  latest.snapshotUser = latest.snapshotUser.slice(0, count);
  return index;
}

/** The index a start builds from the log, with each entry handed over as an object or as rows. */
async function indexFrom(log: string, way: 'entries' | 'rows') {
  const path = `${log}.${way}`;
  await copyFile(log, path);
  const index = new StatsIndex();
  const logger = createMemoryLogger();
  const opened = await PlayLog.open(path, {
    logger,
    onEntry: (entry, snapshot, line) => index.add(entry, snapshot, line),
    onRows: way === 'rows' ? (rows, names) => index.addRows(rows, names) : undefined,
  });
  index.settle();
  index.readIdsFrom(opened);
  const warnings = logger.lines
    .filter((line) => line.includes('WARN'))
    .map((line) => line.replace(/^\S+ /, '').replace(/ path=\S+/, ''));
  return { index, log: opened, warnings };
}

describe('building the stats index from the play log as rows', () => {
  // Two builds of more rows than a batch holds (65,536), the old way a row at a time.
  it(
    'builds the same index, column for column and sum for sum, as entry by entry',
    { timeout: 60_000 },
    async () => {
      const log = await writeLog('plays.jsonl', 70_000);
      const byEntry = await indexFrom(log, 'entries');
      const byRows = await indexFrom(log, 'rows');
      expect(byRows.index.size).toBe(byEntry.index.size);
      expect(byRows.index.size).toBe(70_000 + 1000 + 3 + 3500);
      expect(byRows.warnings).toEqual(byEntry.warnings);
      expect(byRows.warnings).toHaveLength(3);
      expect(differences(withoutSpareRows(byRows.index), withoutSpareRows(byEntry.index), IGNORED)).toEqual(
        [],
      );
      // What the next save writes: every row, in log order.
      expect(Buffer.concat(byRows.index.takeUnsaved())).toEqual(Buffer.concat(byEntry.index.takeUnsaved()));
      for (const userId of ['u0', 'u1', 'u2', 'u3', 'u9']) {
        expect(byRows.index.recentPlays({ userId }, 0, 50)).toEqual(
          byEntry.index.recentPlays({ userId }, 0, 50),
        );
        expect(byRows.index.topArtists({ userId }, 0, 50)).toEqual(
          byEntry.index.topArtists({ userId }, 0, 50),
        );
      }
      await Promise.all([byEntry.log.close(), byRows.log.close()]);
    },
  );

  it('adds later logs after the rows as it would after entries', async () => {
    const log = await writeLog('later.jsonl', 2_000);
    const byEntry = await indexFrom(log, 'entries');
    const byRows = await indexFrom(log, 'rows');
    const later = makeVariedPlays(300).map((p) => ({ ...p, at: p.at + 86_400_000 }));
    await byEntry.log.appendMany(later);
    await byRows.log.appendMany(later);
    expect(differences(withoutSpareRows(byRows.index), withoutSpareRows(byEntry.index), IGNORED)).toEqual([]);
    expect(Buffer.concat(byRows.index.takeUnsaved())).toEqual(Buffer.concat(byEntry.index.takeUnsaved()));
    await Promise.all([byEntry.log.close(), byRows.log.close()]);
  });
});
