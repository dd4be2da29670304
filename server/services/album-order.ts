import type { NamedRef } from '../contract/common.js';
import type { AlbumRecord, TrackRecord } from '../domain/library.js';

/**
 * The orders albums are listed in, the same for every API: the Listen view's sorts and Subsonic's
 * album lists (newest, by artist; catalog-orders.ts keeps them, and those by year and by genre, per
 * library change). Ties go by name, so a list pages stably.
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

/** By the first album artist's name, then the album's. */
export function byArtist(shelf: AlbumShelf, albums: AlbumRecord[]): AlbumRecord[] {
  const artist = (album: AlbumRecord) => shelf.albumArtists(album.id)[0]?.name ?? '';
  return albums.sort((a, b) => byName(artist(a), artist(b)) || byName(a.name, b.name));
}

/**
 * Newest first, by when the album's first track came into the library: a file's modification time
 * is when it came into the folder for most households.
 */
export function newestFirst(shelf: AlbumShelf, albums: AlbumRecord[]): AlbumRecord[] {
  const added = new Map(
    albums.map((album) => [
      album.id,
      shelf.albumTracks(album.id).reduce((first, track) => Math.min(first, track.mtimeMs), Infinity),
    ]),
  );
  return albums.sort((a, b) => added.get(b.id)! - added.get(a.id)! || byName(a.name, b.name));
}
