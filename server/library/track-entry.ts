/**
 * Turns one audio file's tags into a track record and the artist and album names it contributes.
 *
 * Fallbacks for missing tags (chosen per field): title = file name without extension and without a
 * leading "NN - " track-number prefix; album = the parent folder's name; artist = the name of the
 * folder above that (for `untagged/Lonely Folder/Lonely Song.mp3`: album "Lonely Folder", artist
 * "untagged"). Folders are only used below the music folder: a file directly in it gets no album, and
 * one a single level down gets the artist 'Unknown Artist'.
 */
import path from 'node:path';
import {
  plainTrack,
  type AlbumRecord,
  type ArtistRecord,
  type ArtworkInfo,
  type LibraryIndex,
  type TrackRecord,
  type TrackTags,
} from '../domain/library.js';
import { albumId, artistId, trackId } from '../domain/library-ids.js';
import { distinctNames, separateArtists } from './artist-credit.js';
import type { FoundFile } from './folder-walk.js';
import { readTrackFile, type ParsedTrack } from './tags.js';
import type { OpenedTrackFile } from './track-file.js';

/** The name a track gets when its folders do not say its artist. */
export const UNKNOWN_ARTIST = 'Unknown Artist';

// ------------------------------------------------------------------------------------- name splitting

const GENRE_SEPARATORS = /[;/,]/;

export function splitGenres(values: string[]): string[] {
  return distinctNames(values.flatMap((v) => v.split(GENRE_SEPARATORS)));
}

// ------------------------------------------------------------------------------------ entries

interface AlbumRef {
  id: string;
  name: string;
  /** The album artist as credited (absent on records an older Melon made). */
  artist?: string;
  artists: ArtistRecord[];
  year: number | null;
}

/** One track of the new index with the artist and album names it contributes. */
export interface Entry {
  track: TrackRecord;
  artists: ArtistRecord[];
  album: AlbumRef | null;
}

function titleFromFileName(file: string): string {
  const base = path.basename(file, path.extname(file));
  return base.replace(/^\d{1,3}\s*[-.]\s+/, '').trim() || base;
}

/** Folder names used when tags are missing; see the module comment. */
function folderFallbacks(file: string, root: string): { album: string | null; artist: string } {
  const parent = path.dirname(file);
  if (parent === root) return { album: null, artist: UNKNOWN_ARTIST };
  const grandparent = path.dirname(parent);
  // The music folder's own name (e.g. "Music") says nothing about the artist.
  const artist = grandparent === root ? UNKNOWN_ARTIST : path.basename(grandparent);
  return { album: path.basename(parent), artist };
}

function artwork(parsed: ParsedTrack): ArtworkInfo[] {
  return parsed.pictures.map((p, pos) => ({ pos, ...p }));
}

function toArtists(names: string[]): ArtistRecord[] {
  return names.map((name) => ({ id: artistId(name), name }));
}

/** The file's state the record keeps: what the incremental scan compares and what opens check. */
export interface FileState {
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

export function entryFromTags(file: FoundFile, parsed: ParsedTrack, state: FileState): Entry {
  const fallback = folderFallbacks(file.path, file.root);
  const artistNames = separateArtists({
    credit: parsed.artist,
    listed: parsed.artists,
    mbidCount: parsed.artistMbids.length,
  });
  if (artistNames.length === 0) artistNames.push(fallback.artist);
  // Without an ARTIST tag (ARTISTS only), the credit is the list as people write one.
  const credit = parsed.artist ?? joinNames(artistNames);
  const artists = toArtists(artistNames);
  const albumTitle = parsed.album ?? fallback.album;
  // Albums are keyed by title + album artist, so one album's tracks stay together despite guest artists.
  const albumCredit = parsed.albumArtist ?? artistNames[0]!;
  const albumArtistNames = parsed.albumArtist
    ? separateArtists({
        credit: parsed.albumArtist,
        listed: parsed.albumArtists,
        mbidCount: parsed.albumArtistMbids.length,
      })
    : [albumCredit];
  const album: AlbumRef | null = albumTitle
    ? {
        id: albumId(albumTitle, albumCredit),
        name: albumTitle,
        artist: albumCredit,
        artists: toArtists(albumArtistNames),
        year: parsed.year,
      }
    : null;
  // name first: the record's keys follow TrackRecord's order, which keeps stored JSON readable.
  const { name, ...fields } = trackTags(parsed, file.path);
  const track: TrackRecord = {
    id: trackId(file.path),
    path: file.path,
    size: state.size,
    mtimeMs: state.mtimeMs,
    dev: state.dev,
    ino: state.ino,
    name,
    albumId: album?.id ?? null,
    artist: credit,
    artistIds: artists.map((a) => a.id),
    ...fields,
  };
  return { track, artists, album };
}

/** "A", "A & B", "A, B & C". */
function joinNames(names: string[]): string {
  return names.length > 2 ? `${names.slice(0, -1).join(', ')} & ${names.at(-1)!}` : names.join(' & ');
}

function trackTags(parsed: ParsedTrack, file: string): TrackTags {
  return {
    name: parsed.title ?? titleFromFileName(file),
    genres: splitGenres(parsed.genres),
    durationMs: parsed.durationMs,
    trackNumber: parsed.trackNumber,
    discNumber: parsed.discNumber,
    year: parsed.year,
    format: parsed.format,
    artwork: artwork(parsed),
    // Only when tagged, so untagged tracks' records stay as they were.
    ...(parsed.recordingMbid && { recordingMbid: parsed.recordingMbid }),
    ...(parsed.releaseMbid && { releaseMbid: parsed.releaseMbid }),
    ...(parsed.artistMbids.length > 0 && { artistMbids: parsed.artistMbids }),
  };
}

export interface PreviousLookup {
  artists: Map<string, ArtistRecord>;
  albums: Map<string, AlbumRecord>;
  /** One reference per album, shared by its unchanged tracks (the merge only reads them). */
  albumRefs: Map<string, AlbumRef>;
}

export function lookup(previous: LibraryIndex): PreviousLookup {
  return {
    artists: new Map(previous.artists.map((a) => [a.id, a])),
    albums: new Map(previous.albums.map((a) => [a.id, a])),
    albumRefs: new Map(),
  };
}

/** Rebuilds the names an unchanged (not re-read) track contributes from the previous index. */
export function entryFromPrevious(track: TrackRecord, previous: PreviousLookup): Entry {
  const artistsOf = (ids: string[]): ArtistRecord[] =>
    ids.flatMap((id) => {
      const artist = previous.artists.get(id);
      return artist ? [artist] : [];
    });
  const albumOf = (id: string): AlbumRef | null => {
    let ref = previous.albumRefs.get(id);
    if (!ref) {
      const prevAlbum = previous.albums.get(id);
      if (!prevAlbum) return null;
      ref = { ...prevAlbum, artists: artistsOf(prevAlbum.artistIds) };
      previous.albumRefs.set(id, ref);
    }
    return ref;
  };
  return {
    track,
    artists: artistsOf(track.artistIds),
    album: track.albumId === null ? null : albumOf(track.albumId),
  };
}

/**
 * Re-reads one track's file (e.g. after its artwork changed) keeping its id and its album/artist
 * links. `file` is the track's file, opened and checked by the caller; its identity is kept.
 */
export async function rereadTrack(track: TrackRecord, file: OpenedTrackFile): Promise<TrackRecord> {
  const parsed = await readTrackFile(file);
  const { size, mtimeMs, dev, ino } = file.stat;
  return { ...plainTrack(track), size, mtimeMs, dev, ino, ...trackTags(parsed, track.path) };
}
