import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../server/logger.js';
import { openStoreWithIndex } from '../../../server/services/stats/persistence/index-saving.js';
import { StatsIndex } from '../../../server/services/stats/stats-index.js';
import { openStore } from '../../../server/store/open-store.js';
import { makeVariedPlays } from '../../factories/plays.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  );

describe('the store, opened on its own', () => {
  it('reads the whole play log for whoever asks, hands on each appended entry, and leaves plays.index alone', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'melon-open-store-'));
    dirs.push(dataDir);
    const plays = makeVariedPlays(31);
    const first = await openStoreWithIndex(dataDir, {
      logger: createMemoryLogger(),
      index: new StatsIndex(),
    });
    await first.store.plays.appendMany(plays.slice(0, 30));
    await first.close();
    const saved = await sizeOf(join(dataDir, 'plays.index'));
    expect(saved).toBeGreaterThan(0);

    const heard: string[] = [];
    const store = await openStore(dataDir, {
      logger: createMemoryLogger(),
      readPlays: () => Promise.resolve({ onEntry: (entry) => heard.push(entry.id) }),
    });
    expect(store.plays.replayed).toBe(30);
    expect(heard).toEqual(plays.slice(0, 30).map((p) => p.id));
    await store.plays.appendMany(plays.slice(30));
    expect(heard).toHaveLength(31);
    await store.close();
    expect(await sizeOf(join(dataDir, 'plays.index'))).toBe(saved);
  });
});
