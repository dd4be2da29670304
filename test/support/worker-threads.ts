import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, afterEach } from 'vitest';
import { onWorkerStart } from '../../server/library/sync-workers.js';

/**
 * Watches the file-system worker threads a file's tests start: how many are still running, and a
 * way to act on each as it starts (a test kills some to play a worker that fails).
 */
export function watchWorkers() {
  let running = 0;
  let started = 0;
  let act: ((worker: Worker, nth: number) => void) | null = null;
  const firstStart: Array<() => void> = [];
  onWorkerStart((worker) => {
    running++;
    started++;
    worker.once('exit', () => running--);
    for (const resolve of firstStart.splice(0)) resolve();
    act?.(worker, started);
  });
  afterEach(() => {
    act = null;
  });
  afterAll(() => onWorkerStart(null));
  return {
    get running() {
      return running;
    },
    get started() {
      return started;
    },
    /** Calls `action` with each worker started from now on, and how many started before it (from 1). */
    onStart(action: (worker: Worker, nth: number) => void): void {
      act = action;
    },
    /** Resolves once a worker starts. */
    nextStart(): Promise<void> {
      return new Promise((resolve) => firstStart.push(resolve));
    },
    /** Resolves once no worker runs, or after a second (the test then sees how many still do). */
    async settled(): Promise<number> {
      for (let i = 0; i < 100 && running > 0; i++) await new Promise((r) => setTimeout(r, 10));
      return running;
    },
  };
}

/**
 * Writes a library of `folders` album folders of one (empty) track each below `music`: from 1,024
 * folders, a walk lists the rest in worker threads.
 */
export async function writeAlbumFolders(music: string, folders = 1200): Promise<void> {
  for (let n = 0; n < folders; n++) {
    const dir = path.join(music, `Artist ${n % 40}`, `Album ${n}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, '1.mp3'), '');
  }
}
