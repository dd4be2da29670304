import { describe, expect, it } from 'vitest';
import type { LibraryIndex } from '../../server/domain/library.js';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { ADMIN_PASSWORD, ADMIN_USER, useTestServer } from '../support/server.js';
import { ok, type Credentials } from './support.js';

/**
 * The lists a player browses are kept between requests (orders, letter groups, genre counts):
 * after a rescan every one of them shows the library as the scan left it.
 */
function library(withJazz: boolean): LibraryIndex {
  const index = makeLibrary({
    artists: [
      { id: 'ar1', name: 'Aurora Lane' },
      { id: 'ar2', name: 'Birch Choir' },
      ...(withJazz ? [{ id: 'ar3', name: 'Cedar Quartet' }] : []),
    ],
    albums: [
      { id: 'al1', name: 'First Light', artistIds: ['ar1'] },
      { id: 'al2', name: 'Woods', artistIds: ['ar2'] },
      ...(withJazz ? [{ id: 'al3', name: 'Blue Hour', artistIds: ['ar3'] }] : []),
    ],
    tracks: [
      { id: 't1', name: 'Dawn', albumId: 'al1', artistIds: ['ar1'], genres: ['Rock'] },
      { id: 't2', name: 'Noon', albumId: 'al1', artistIds: ['ar1'], genres: ['Rock'] },
      // The rescan finds this one's genre retagged, and the other Woods track gone.
      { id: 't3', name: 'Leaves', albumId: 'al2', artistIds: ['ar2'], genres: [withJazz ? 'Jazz' : 'Rock'] },
      ...(withJazz
        ? [{ id: 't5', name: 'Smoke', albumId: 'al3', artistIds: ['ar3'], genres: ['jazz'] }]
        : [{ id: 't4', name: 'Moss', albumId: 'al2', artistIds: ['ar2'], genres: ['Rock'] }]),
    ],
  });
  const years: Record<string, number> = { al1: 1990, al2: 2000, al3: 1975 };
  const times: Record<string, number> = { t1: 1e12, t2: 1e12, t3: 2e12, t4: 2e12, t5: 3e12 };
  for (const album of index.albums) album.year = years[album.id]!;
  for (const track of index.tracks) {
    track.mtimeMs = times[track.id]!;
    track.artist = 'as credited';
  }
  return index;
}

const scanner = fakeScanner(library(false));
const t = useTestServer({ scanner });
const admin: Credentials = { username: ADMIN_USER, password: ADMIN_PASSWORD };

type Listed = Record<string, Record<string, Array<Record<string, unknown>>>>;
const ids = (items: Array<Record<string, unknown>> | undefined) => (items ?? []).map((item) => item.id);

async function lists() {
  const albums = async (params: Record<string, string>) =>
    ids(
      ((await ok(t, admin, 'getAlbumList2', { size: '50', ...params })) as unknown as Listed).albumList2!
        .album,
    );
  const artists = (await ok(t, admin, 'getArtists')) as unknown as {
    artists: { index: Array<{ name: string; artist: Array<{ id: string; albumCount: number }> }> };
  };
  const indexes = (await ok(t, admin, 'getIndexes')) as unknown as {
    indexes: { lastModified: number; index: Array<{ name: string; artist: Array<{ id: string }> }> };
  };
  const genres = (await ok(t, admin, 'getGenres')) as unknown as {
    genres: { genre: Array<{ value: string; songCount: number; albumCount: number }> };
  };
  const songs = (await ok(t, admin, 'getSongsByGenre', { genre: 'JAZZ' })) as unknown as Listed;
  return {
    newest: await albums({ type: 'newest' }),
    byArtist: await albums({ type: 'alphabeticalByArtist' }),
    byYear: await albums({ type: 'byYear', fromYear: '2020', toYear: '1970' }),
    jazzAlbums: await albums({ type: 'byGenre', genre: 'jazz' }),
    jazzSongs: ids(songs.songsByGenre!.song),
    artists: artists.artists.index.map((group) => [
      group.name,
      group.artist.map((artist) => `${artist.id}:${artist.albumCount}`),
    ]),
    indexes: indexes.indexes.index.map((group) => [group.name, ids(group.artist)]),
    lastModified: indexes.indexes.lastModified,
    genres: genres.genres.genre,
  };
}

describe('Subsonic lists after a rescan', () => {
  it('shows every kept list as the rescan left the library', async () => {
    expect(await lists()).toEqual({
      newest: ['al2', 'al1'],
      byArtist: ['al1', 'al2'],
      byYear: ['al2', 'al1'],
      jazzAlbums: [],
      jazzSongs: [],
      artists: [
        ['A', ['ar1:1']],
        ['B', ['ar2:1']],
      ],
      indexes: [
        ['A', ['ar1']],
        ['B', ['ar2']],
      ],
      lastModified: 2e12,
      genres: [{ songCount: 4, albumCount: 2, value: 'Rock' }],
    });

    scanner.set(library(true));
    const scan = await t.call('/api/library/scan', { method: 'POST', token: t.adminToken });
    expect(scan.status).toBe(202);
    await t.server.services.library.waitForIdle();

    expect(await lists()).toEqual({
      newest: ['al3', 'al2', 'al1'],
      byArtist: ['al1', 'al2', 'al3'],
      byYear: ['al2', 'al1', 'al3'],
      jazzAlbums: ['al3', 'al2'],
      jazzSongs: ['t3', 't5'],
      artists: [
        ['A', ['ar1:1']],
        ['B', ['ar2:1']],
        ['C', ['ar3:1']],
      ],
      indexes: [
        ['A', ['ar1']],
        ['B', ['ar2']],
        ['C', ['ar3']],
      ],
      lastModified: 3e12,
      genres: [
        { songCount: 2, albumCount: 2, value: 'Jazz' },
        { songCount: 2, albumCount: 1, value: 'Rock' },
      ],
    });
  });
});
