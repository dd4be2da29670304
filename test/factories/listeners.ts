import { makeUserRecord, principalOf } from './accounts.js';
import { oneAlbumLibrary } from './library.js';

/**
 * A small world for the listener-facing services' unit tests (favourites, play queues, playlist
 * edits, highest rated): one artist, one album, two tracks, and two listeners.
 */
export const twoTrackLibrary = oneAlbumLibrary(2);
export const alice = principalOf(makeUserRecord({ id: 'alice' }));
export const bob = principalOf(makeUserRecord({ id: 'bob' }));
