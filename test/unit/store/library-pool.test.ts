import { describe, expect, it } from 'vitest';
import type { TrackRecord } from '../../../server/domain/library.js';
import { LibraryPool } from '../../../server/store/library-pool.js';
import { makeLibrary } from '../../factories/library.js';

/** A scan's records: each string and list its own copy, as JSON.parse and the tag reader make them. */
function scanned() {
  const index = makeLibrary({
    artists: [{ id: 'ar1' }, { id: 'ar2' }],
    albums: [{ id: 'al1', artistIds: ['ar1'] }],
    tracks: [1, 2, 3].map((n) => ({ id: `t${n}`, artistIds: ['ar1', 'ar2'], genres: ['Rock'] })),
  });
  const cover = { pos: 0, type: 'front', mime: 'image/jpeg', width: 1, height: 1, size: 9 };
  return structuredClone({
    ...index,
    tracks: index.tracks.map((track) => ({
      ...track,
      dev: 1,
      ino: 2,
      artist: 'Artist ar1, Artist ar2',
      artwork: [cover],
    })),
  });
}

describe('LibraryPool', () => {
  it('keeps each record as it was, field for field', () => {
    const index = scanned();
    const pool = new LibraryPool();
    expect(index.tracks.map((track) => pool.track(track))).toStrictEqual(index.tracks);
    expect(index.albums.map((album) => pool.album(album))).toStrictEqual(index.albums);
    expect(index.artists.map((artist) => pool.artist(artist))).toStrictEqual(index.artists);
  });

  it('keeps a record an older Melon made without the fields it lacked', () => {
    const old = { ...scanned().tracks[0]! } as Partial<TrackRecord>;
    delete old.dev;
    delete old.ino;
    delete old.artist;
    const kept = new LibraryPool().track(old as TrackRecord);
    expect(kept).toStrictEqual(old);
    expect(Object.keys(kept).sort()).toEqual(Object.keys(old).sort());
  });

  it("shares one copy of an album's repeated strings and lists among its tracks", () => {
    const pool = new LibraryPool();
    const [a, b] = scanned().tracks.map((track) => pool.track(track));
    expect(a!.artistIds).not.toBe(scanned().tracks[0]!.artistIds);
    expect(b!.artistIds).toBe(a!.artistIds);
    expect(b!.genres).toBe(a!.genres);
    expect(b!.artwork).toBe(a!.artwork);
    expect(b!.artist).toBe(a!.artist);
  });

  it('freezes the lists it shares, so a change to one cannot reach every track', () => {
    const track = new LibraryPool().track(scanned().tracks[0]!);
    expect(() => track.genres.push('Pop')).toThrow(TypeError);
    expect(() => {
      track.artwork[0]!.size = 1;
    }).toThrow(TypeError);
    expect(Object.isFrozen(track.artistIds)).toBe(true);
  });
});
