import type { NamedRef } from '../contract/common.js';
import type { TrackRecord } from '../domain/library.js';

/**
 * What the orders albums are listed in compare, the same for every API: the Listen view's sorts
 * and Subsonic's album lists (catalog-orders.ts makes and keeps them per library change). Ties go
 * by name, so a list pages stably.
 */

/** The library as the orders read it. */
export interface AlbumShelf {
  albumTracks(albumId: string): readonly TrackRecord[];
  albumArtists(albumId: string): NamedRef[];
  albumStats(albumId: string): { genres: readonly string[] };
}

// One collator for every comparison: localeCompare with options looks one up per call, which made
// a sort of every album many times slower. The order is the same (localeCompare is defined by it).
const names = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Names as people sort them: ignoring case and accents, numbers by value ("2" before "10"). */
export const byName = (a: string, b: string) => names.compare(a, b);

/** Two genre names are the same genre when their keys are equal (ignoring case). */
export const genreKey = (genre: string) => genre.toLocaleLowerCase('en');
