import { realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryIndex } from '../../../server/domain/library.js';
import { scanLibrary } from '../../../server/library/scanner.js';
import { openTrackFile } from '../../../server/library/track-file.js';
import { rereadTrack, splitGenres } from '../../../server/library/track-entry.js';
import { copyFixtureLibrary, trackNamed } from '../../support/fixture-library.js';

const EMPTY: LibraryIndex = { tracks: [], albums: [], artists: [] };

let work: string;

beforeAll(async () => {
  work = (await copyFixtureLibrary('melon-entry-')).library;
});

afterAll(async () => {
  await rm(path.dirname(work), { recursive: true, force: true });
});

describe('name splitting', () => {
  it('splits genres on ; / , and drops duplicates', () => {
    expect(splitGenres(['Rock, Pop/Indie;rock', ' ', 'POP'])).toEqual(['Rock', 'Pop', 'Indie']);
  });
});

describe('rereadTrack', () => {
  it('keeps the identity and refreshes file facts', async () => {
    const { index } = await scanLibrary([work], EMPTY);
    const track = trackNamed(index, 'Tone OGG');
    const stale = { ...track, size: 1, mtimeMs: 2, artwork: [] };
    const file = await openTrackFile(track.path, [await realpath(work)], null);
    try {
      expect(await rereadTrack(stale, file)).toEqual(track);
    } finally {
      await file.handle.close();
    }
  });
});
