import { cp, mkdtemp, rm, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureFixtures } from '../../../scripts/make-fixtures.js';
import type { LibraryIndex } from '../../../server/domain/library.js';
import * as reading from '../../../server/library/scan-reading.js';
import { scanLibrary } from '../../../server/library/scanner.js';

// Counts the times a scan sets V8 for reading files (scan-reading.ts), the settings left as they are.
vi.mock('../../../server/library/scan-reading.js', async (importOriginal) => {
  const original = await importOriginal<typeof reading>();
  return { ...original, whileReadingFiles: vi.fn(original.whileReadingFiles) };
});

const EMPTY: LibraryIndex = { tracks: [], albums: [], artists: [] };
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'melon-scan-reading-'));
  await cp(path.join(await ensureFixtures(), 'library'), work, { recursive: true });
  // A file that cannot be read is tried again by every scan: here only readable ones.
  await rm(path.join(work, 'broken'), { recursive: true });
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('V8 set for reading files during a scan', () => {
  it('is set once for a first scan, left alone by a rescan that reads nothing, set again for a changed file', async () => {
    const setFor = vi.mocked(reading.whileReadingFiles);
    const first = await scanLibrary([work], EMPTY);
    expect(first.progress.added).toBeGreaterThan(1);
    expect(setFor).toHaveBeenCalledTimes(1);

    setFor.mockClear();
    const again = await scanLibrary([work], first.index);
    expect(again.progress).toMatchObject({ added: 0, updated: 0, removed: 0 });
    expect(setFor).not.toHaveBeenCalled();

    const changed = first.index.tracks[0]!.path;
    await utimes(changed, new Date(), new Date(Date.now() + 5_000));
    const third = await scanLibrary([work], again.index);
    expect(third.progress.updated).toBe(1);
    expect(setFor).toHaveBeenCalledTimes(1);
  });
});
