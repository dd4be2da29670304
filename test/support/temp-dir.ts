import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * A fresh folder for each test of the file that calls this, removed after the test once what was
 * opened in it (handed to `closeAfter`) is closed.
 */
export function tempDirPerTest(prefix: string) {
  let dir = '';
  const closers: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    path: (...parts: string[]) => join(dir, ...parts),
    closeAfter: (close: () => Promise<void>) => {
      closers.push(close);
    },
  };
}

/**
 * One fresh folder for the whole test file that calls this: made before its first test, removed after
 * its last (after what a later hook of the file opened in it is closed: after-hooks run in reverse).
 */
export function tempDirPerFile(prefix: string) {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(() => dir && rm(dir, { recursive: true, force: true }));
  return { path: (...parts: string[]) => join(dir, ...parts) };
}
