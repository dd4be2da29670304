import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtures } from '../../../scripts/make-fixtures.js';
import type { LibraryIndex, TrackRecord } from '../../../server/domain/library.js';
import { scanLibrary } from '../../../server/library/scanner.js';
import { rereadTrack, splitArtists, splitGenres } from '../../../server/library/track-entry.js';

const EMPTY: LibraryIndex = { tracks: [], albums: [], artists: [] };

let work: string;

beforeAll(async () => {
  const library = path.join(await ensureFixtures(), 'library');
  work = await mkdtemp(path.join(os.tmpdir(), 'melon-entry-'));
  await cp(library, work, { recursive: true });
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function byName(index: LibraryIndex, name: string): TrackRecord {
  const track = index.tracks.find((t) => t.name === name);
  if (!track) throw new Error(`no track named ${name}`);
  return track;
}

describe('name splitting', () => {
  it('splits artists on ; / feat. ft. & and merges spellings case-insensitively', () => {
    expect(splitArtists(['A; B / C ft. D & E feat. F', ' a ', 'Feat. G'])).toEqual([
      'A',
      'B',
      'C',
      'D',
      'E',
      'F',
      'Feat. G',
    ]);
    expect(splitArtists(['Simon & Garfunkel', 'simon'])).toEqual(['Simon', 'Garfunkel']);
    expect(splitArtists([' ', ';'])).toEqual([]);
  });

  it('splits genres on ; / , and drops duplicates', () => {
    expect(splitGenres(['Rock, Pop/Indie;rock', ' ', 'POP'])).toEqual(['Rock', 'Pop', 'Indie']);
  });
});

describe('rereadTrack', () => {
  it('keeps the identity and refreshes file facts', async () => {
    const { index } = await scanLibrary([work], EMPTY);
    const track = byName(index, 'Tone OGG');
    const stale = { ...track, size: 1, mtimeMs: 2, artwork: [] };
    expect(await rereadTrack(stale)).toEqual(track);
  });
});
