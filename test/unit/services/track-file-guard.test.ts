import { mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackRecord } from '../../../server/domain/library.js';
import { createMemoryLogger } from '../../../server/logger.js';
import { TrackFileGuard } from '../../../server/services/track-file-guard.js';
import { problemOf } from '../../support/problem-of.js';

let music: string;
let track: TrackRecord;

beforeAll(async () => {
  music = await realpath(await mkdtemp(join(tmpdir(), 'melon-guard-')));
  const file = join(music, 'song.mp3');
  await writeFile(file, 'a song');
  track = {
    id: 'track-1',
    path: file,
    size: 6,
    mtimeMs: (await stat(file)).mtimeMs,
    name: 'song',
    albumId: null,
    artistIds: [],
    genres: [],
    durationMs: 1000,
    trackNumber: null,
    discNumber: null,
    year: null,
    format: 'mp3',
    artwork: [],
  };
});
afterAll(async () => {
  await rm(music, { recursive: true, force: true });
});

function guard() {
  const scans: string[] = [];
  const logger = createMemoryLogger();
  return { scans, logger, sut: new TrackFileGuard([music], logger, () => scans.push('scan')) };
}

describe('TrackFileGuard', () => {
  it('refuses a record kept before identities were, and asks for the scan that gives it one', async () => {
    const { sut, scans, logger } = guard();
    expect(await problemOf(() => sut.open(track))).toBe('404 track_file_not_found');
    expect(scans).toEqual(['scan']);
    expect(logger.lines.join('\n')).toContain('unverified');
    const { dev, ino } = await stat(track.path);
    const file = await sut.open({ ...track, dev, ino });
    expect((await file.handle.readFile()).toString()).toBe('a song');
    await file.handle.close();
    expect(scans).toEqual(['scan']);
  });

  it('refuses a file that is not the scanned one, and asks for a scan', async () => {
    const { sut, scans } = guard();
    const { dev, ino } = await stat(track.path);
    expect(await problemOf(() => sut.open({ ...track, dev, ino: ino + 1 }))).toBe('404 track_file_not_found');
    expect(scans).toEqual(['scan']);
  });
});
