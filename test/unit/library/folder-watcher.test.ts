import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderWatcher } from '../../../server/library/folder-watcher.js';
import { createMemoryLogger } from '../../../server/logger.js';

const OPTIONS = { debounceMs: 100, maxWaitMs: 400, pollIntervalMs: 60_000 };
let watcher: FolderWatcher | undefined;
afterEach(() => watcher?.stop());

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('FolderWatcher', () => {
  it('watches each folder (not each file), follows new sub-folders and lets go of deleted ones', async () => {
    const root = await mkdtemp(join(tmpdir(), 'melon-watcher-'));
    await mkdir(join(root, 'A', 'one'), { recursive: true });
    await mkdir(join(root, '.hidden'), { recursive: true });
    await writeFile(join(root, 'A', 'one', 'x.mp3'), 'x');
    let changes = 0;
    watcher = new FolderWatcher(() => changes++, createMemoryLogger(), OPTIONS);
    await watcher.start([root]);
    expect(watcher.watchedFolders).toBe(3); // root, A, A/one
    expect(watcher.polling).toBe(false);

    await mkdir(join(root, 'B', 'two', 'three'), { recursive: true });
    await until(() => watcher!.watchedFolders === 6);
    await writeFile(join(root, 'B', 'two', 'three', 'y.mp3'), 'y');
    await until(() => changes > 0);

    await rm(join(root, 'A'), { recursive: true });
    await until(() => watcher!.watchedFolders === 4);
    await rm(root, { recursive: true, force: true });
  });

  it('debounces a burst of changes into one call', async () => {
    const root = await mkdtemp(join(tmpdir(), 'melon-watcher-'));
    let changes = 0;
    watcher = new FolderWatcher(() => changes++, createMemoryLogger(), OPTIONS);
    await watcher.start([root]);
    for (let i = 0; i < 20; i++) await writeFile(join(root, `f${i}.mp3`), 'x');
    await until(() => changes > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(changes).toBe(1);
    await rm(root, { recursive: true, force: true });
  });

  it('falls back to polling a music folder it cannot watch, and says so', async () => {
    const logger = createMemoryLogger();
    watcher = new FolderWatcher(() => undefined, logger, OPTIONS);
    await watcher.start([join(tmpdir(), 'melon-no-such-folder-' + process.pid)]);
    expect(watcher.polling).toBe(true);
    expect(logger.lines).toEqual([
      expect.stringMatching(/WARN music folder cannot be watched.*everyMinutes=1/),
    ]);
  });
});
