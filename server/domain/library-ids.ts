import { createHash } from 'node:crypto';

/*
 * Library ids are derived from stable inputs (the file's absolute path, lower-cased names), so they
 * survive rescans and restarts, and ratings and plays keep pointing at the same track.
 */

function hashId(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);
}

export function trackId(absolutePath: string): string {
  return hashId('track', absolutePath);
}

export function artistId(name: string): string {
  return hashId('artist', name.trim().toLowerCase());
}

export function albumId(title: string, albumArtist: string): string {
  return hashId('album', title.trim().toLowerCase(), albumArtist.trim().toLowerCase());
}
