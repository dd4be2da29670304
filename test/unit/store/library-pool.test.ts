import { describe, expect, it } from 'vitest';
import { LibraryPool } from '../../../server/store/library-pool.js';
import { makeLibrary } from '../../factories/library.js';

/** A scan's records: each string and list its own copy, as JSON.parse and the tag reader make them. */
function scanned() {
  const index = makeLibrary({
    artists: [{ id: 'ar1' }, { id: 'ar2' }],
    albums: [{ id: 'al1', artistIds: ['ar1', 'ar2'] }],
    tracks: [],
  });
  index.albums[0]!.artist = 'Artist ar1, Artist ar2';
  return structuredClone(index);
}

describe('LibraryPool', () => {
  it('keeps each album and artist record as it was, field for field', () => {
    const index = scanned();
    const pool = new LibraryPool();
    expect(index.albums.map((album) => pool.album(album))).toStrictEqual(index.albums);
    expect(index.artists.map((artist) => pool.artist(artist))).toStrictEqual(index.artists);
  });

  it('shares one frozen copy of a repeated artist list', () => {
    const pool = new LibraryPool();
    const [a, b] = [scanned(), scanned()].map((index) => pool.album(index.albums[0]!));
    expect(b!.artistIds).toBe(a!.artistIds);
    expect(Object.isFrozen(a!.artistIds)).toBe(true);
  });
});
