/**
 * The library's records (docs/API.md, Library): what the scanner builds, the store keeps and the services
 * present. Ids are derived in ./library-ids.ts.
 */

import type { ArtworkInfo } from '../contract/library.js';

/** One picture embedded in an audio file: the API's shape, kept as the scanner found it. */
export type { ArtworkInfo };

/** What a track's own file says about it: a re-read refreshes exactly these, and views show them. */
export interface TrackTags {
  name: string;
  genres: string[];
  durationMs: number;
  trackNumber: number | null;
  discNumber: number | null;
  year: number | null;
  format: string;
  artwork: ArtworkInfo[];
  /** MusicBrainz ids from the tags, when tagged (Picard and the like); listens are matched by them. */
  recordingMbid?: string;
  releaseMbid?: string;
  artistMbids?: string[];
}

export interface TrackRecord extends TrackTags {
  id: string;
  path: string;
  size: number;
  mtimeMs: number;
  /**
   * The device and inode the scan found at `path`: a file opened for this track must be this one
   * (library/track-file.ts). Records from before they were kept lack them until their next scan.
   */
  dev?: number;
  ino?: number;
  albumId: string | null;
  /**
   * The artist as credited, the ARTIST tag whole ("Simon & Garfunkel"): what is shown, exported and
   * matched. `artistIds` are the separate artists it names (library/artist-credit.ts). Absent on
   * records an older Melon made, until a scan reads the file again.
   */
  artist?: string;
  artistIds: string[];
}

export interface AlbumRecord {
  id: string;
  name: string;
  /** The album artist as credited (see TrackRecord.artist). */
  artist?: string;
  artistIds: string[];
  year: number | null;
}

export interface ArtistRecord {
  id: string;
  name: string;
}

export interface LibraryIndex {
  tracks: TrackRecord[];
  albums: AlbumRecord[];
  artists: ArtistRecord[];
}

/**
 * The track's fields in a plain object, in the order library.json writes them. The store may hold a
 * track as a view over its columns, whose fields are getters: a spread (`{ ...track }`), `Object.keys`
 * and structuredClone see none of them, so code making a changed track starts from this copy.
 */
export function plainTrack(track: TrackRecord): TrackRecord {
  const plain: TrackRecord = {
    id: track.id,
    path: track.path,
    size: track.size,
    mtimeMs: track.mtimeMs,
    name: track.name,
    albumId: track.albumId,
    artistIds: track.artistIds,
    genres: track.genres,
    durationMs: track.durationMs,
    trackNumber: track.trackNumber,
    discNumber: track.discNumber,
    year: track.year,
    format: track.format,
    artwork: track.artwork,
  };
  const { dev, ino, artist, recordingMbid, releaseMbid, artistMbids } = track;
  if (dev !== undefined) plain.dev = dev;
  if (ino !== undefined) plain.ino = ino;
  if (artist !== undefined) plain.artist = artist;
  if (recordingMbid !== undefined) plain.recordingMbid = recordingMbid;
  if (releaseMbid !== undefined) plain.releaseMbid = releaseMbid;
  if (artistMbids !== undefined) plain.artistMbids = artistMbids;
  return plain;
}
