import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ensureFixtures,
  FIXTURE_ALBUM_DIR,
  FORMAT_FIXTURES,
  FORMATS_DIR,
} from '../../../scripts/make-fixtures.js';
import { readTrackFile } from '../../../server/library/tags.js';
import { openTrackFile } from '../../../server/library/track-file.js';

/**
 * A scan's CPU goes mostly to trips through the thread pool, one per read of a file: the readers
 * share one window on each file, so a file's tags, pictures and exact length cost a few reads.
 */
const MAX_READS = 4;

let root: string;
beforeAll(async () => {
  root = await ensureFixtures();
}, 60_000);

/** Reads the file's track as the scanner does, counting the reads of its handle. */
async function readsOf(file: string): Promise<{ reads: number; durationMs: number; pictures: number }> {
  const opened = await openTrackFile(file, [path.dirname(file)], null);
  const { handle } = opened;
  const read = handle.read.bind(handle);
  let reads = 0;
  handle.read = (...args: Parameters<typeof read>) => {
    reads++;
    return read(...args);
  };
  try {
    const track = await readTrackFile(opened);
    return { reads, durationMs: track.durationMs, pictures: track.pictures.length };
  } finally {
    await handle.close();
  }
}

describe('reading a track file', () => {
  it.each(FORMAT_FIXTURES.map((f) => f.file))('%s: its length in a few reads', async (file) => {
    const { reads, durationMs } = await readsOf(path.join(root, FORMATS_DIR, file));
    expect(durationMs).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(MAX_READS);
  });

  it('reads each tagged format with its cover in a few reads', async () => {
    const album = path.join(root, FIXTURE_ALBUM_DIR);
    // Every tagged fixture but the WAV carries pictures.
    const files = (await readdir(album)).filter((f) => /\.(mp3|flac|m4a|ogg|opus)$/.test(f));
    expect(files.length).toBe(5);
    for (const file of files) {
      const { reads, pictures } = await readsOf(path.join(album, file));
      expect(pictures, file).toBeGreaterThan(0);
      expect(reads, file).toBeLessThanOrEqual(MAX_READS);
    }
  });
});
