import { album, artist, libraryOf, track } from '../factories/library.js';
import type { LibraryIndex } from '../../server/domain/library.js';

/** A recording MBID the library is tagged with (the ListenBrainz docs' sample listen). */
export const ASTLEY_MBID = '98255a8c-017a-4bc7-8dd6-1fa36124572b';

/** An artist the library only gains in the tests that rescan it. */
const lateBand = artist('late', 'Late Band', [
  album('lateal', 'Arrives Later', [
    track('laterone', 'Later One', { genres: ['Folk'], durationMs: 150_000 }),
  ]),
]);

/**
 * The library of the history tests: names as other services write them differently (accents,
 * credits, edition suffixes), one track tagged with its MusicBrainz recording id.
 */
export function historyLibrary(extra: { withLateAlbum?: boolean } = {}): LibraryIndex {
  return libraryOf([
    artist('rick', 'Rick Astley', [
      album('whenever', 'Whenever You Need Somebody', [
        track('never', 'Never Gonna Give You Up', {
          genres: ['Pop'],
          durationMs: 213_000,
          recordingMbid: ASTLEY_MBID,
        }),
      ]),
    ]),
    artist('bey', 'Beyoncé', [
      album('dil', 'Dangerously in Love', [
        track('crazy', 'Crazy in Love', { artistIds: ['bey', 'jay'], genres: ['R&B'], durationMs: 236_000 }),
      ]),
    ]),
    artist('jay', 'JAY-Z'),
    artist('beat', 'The Beatles', [
      album('abbey', 'Abbey Road (Remastered)', [
        track('sun', 'Here Comes the Sun - Remastered 2009', { genres: ['Rock'], durationMs: 185_000 }),
        track('something', 'Something', { genres: ['Rock'], durationMs: 182_000 }),
      ]),
    ]),
    ...(extra.withLateAlbum ? [lateBand] : []),
  ]);
}
