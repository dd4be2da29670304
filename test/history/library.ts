import { makeLibrary } from '../factories/library.js';
import type { LibraryIndex } from '../../server/domain/library.js';

/** A recording MBID the library is tagged with (the ListenBrainz docs' sample listen). */
export const ASTLEY_MBID = '98255a8c-017a-4bc7-8dd6-1fa36124572b';

/**
 * The library of the history tests: names as other services write them differently (accents,
 * credits, edition suffixes), one track tagged with its MusicBrainz recording id.
 */
export function historyLibrary(extra: { withLateAlbum?: boolean } = {}): LibraryIndex {
  const library = makeLibrary({
    artists: [
      { id: 'rick', name: 'Rick Astley' },
      { id: 'bey', name: 'Beyoncé' },
      { id: 'jay', name: 'JAY-Z' },
      { id: 'beat', name: 'The Beatles' },
      { id: 'late', name: 'Late Band' },
    ],
    albums: [
      { id: 'whenever', name: 'Whenever You Need Somebody', artistIds: ['rick'] },
      { id: 'dil', name: 'Dangerously in Love', artistIds: ['bey'] },
      { id: 'abbey', name: 'Abbey Road (Remastered)', artistIds: ['beat'] },
      { id: 'lateal', name: 'Arrives Later', artistIds: ['late'] },
    ],
    tracks: [
      {
        id: 'never',
        name: 'Never Gonna Give You Up',
        albumId: 'whenever',
        artistIds: ['rick'],
        genres: ['Pop'],
        durationMs: 213_000,
      },
      {
        id: 'crazy',
        name: 'Crazy in Love',
        albumId: 'dil',
        artistIds: ['bey', 'jay'],
        genres: ['R&B'],
        durationMs: 236_000,
      },
      {
        id: 'sun',
        name: 'Here Comes the Sun - Remastered 2009',
        albumId: 'abbey',
        artistIds: ['beat'],
        genres: ['Rock'],
        durationMs: 185_000,
      },
      {
        id: 'something',
        name: 'Something',
        albumId: 'abbey',
        artistIds: ['beat'],
        genres: ['Rock'],
        durationMs: 182_000,
      },
      {
        id: 'laterone',
        name: 'Later One',
        albumId: 'lateal',
        artistIds: ['late'],
        genres: ['Folk'],
        durationMs: 150_000,
      },
    ],
  });
  library.tracks[0]!.recordingMbid = ASTLEY_MBID;
  if (!extra.withLateAlbum) {
    library.tracks = library.tracks.filter((track) => track.albumId !== 'lateal');
    library.albums = library.albums.filter((album) => album.id !== 'lateal');
    library.artists = library.artists.filter((artist) => artist.id !== 'late');
  }
  return library;
}
