import { makeUserRecord, principalOf } from './accounts.js';
import { makeLibrary } from './library.js';

/**
 * A small world for the listener-facing services' unit tests (favourites, play queues, playlist
 * edits, highest rated): one artist, one album, two tracks, and two listeners.
 */
export const twoTrackLibrary = makeLibrary({
  artists: [{ id: 'ar1' }],
  albums: [{ id: 'al1', artistIds: ['ar1'] }],
  tracks: [
    { id: 't1', artistIds: ['ar1'], albumId: 'al1' },
    { id: 't2', artistIds: ['ar1'], albumId: 'al1' },
  ],
});
export const alice = principalOf(makeUserRecord({ id: 'alice' }));
export const bob = principalOf(makeUserRecord({ id: 'bob' }));
