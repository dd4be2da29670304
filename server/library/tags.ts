/**
 * Reads tags, duration and embedded pictures of one audio file with music-metadata. The values are raw
 * (artists and genres unsplit): the scanner decides how to split and merge them.
 */
import { parseFile, type IAudioMetadata, type IPicture } from 'music-metadata';
import path from 'node:path';
import { sniffImage } from './image-info.js';
import { messageOf } from '../errors.js';
import { errnoCode } from '../fs/errno.js';

export interface ParsedPicture {
  /** Lower-case picture kind, e.g. 'front cover', 'back cover', 'other'. */
  type: string;
  mime: string;
  width: number | null;
  height: number | null;
  size: number;
}

export interface ParsedTrack {
  title: string | null;
  artists: string[];
  albumArtist: string | null;
  album: string | null;
  genres: string[];
  trackNumber: number | null;
  discNumber: number | null;
  year: number | null;
  durationMs: number;
  /** 'mp3' | 'flac' | 'm4a' | 'ogg' | 'opus' | 'wav' (or 'aac' for raw ADTS streams). */
  format: string;
  pictures: ParsedPicture[];
  recordingMbid: string | null;
  releaseMbid: string | null;
  artistMbids: string[];
}

/** ID3v2 / FLAC picture types in numeric order (0..20), as short lower-case labels. */
const PICTURE_TYPES = [
  'other',
  'file icon',
  'other file icon',
  'front cover',
  'back cover',
  'leaflet page',
  'media',
  'lead artist',
  'artist',
  'conductor',
  'band',
  'composer',
  'lyricist',
  'recording location',
  'during recording',
  'during performance',
  'screen capture',
  'bright coloured fish',
  'illustration',
  'band logotype',
  'publisher logotype',
];

/** music-metadata's names for the same types, in the same order. */
const MM_PICTURE_TYPES = [
  'Other',
  '32x32 pixels file icon',
  'Other file icon',
  'Cover (front)',
  'Cover (back)',
  'Leaflet page',
  'Media (e.g. label side of CD)',
  'Lead artist/lead performer/soloist',
  'Artist/performer',
  'Conductor',
  'Band/Orchestra',
  'Composer',
  'Lyricist/text writer',
  'Recording Location',
  'During recording',
  'During performance',
  'Movie/video screen capture',
  'A bright coloured fish',
  'Illustration',
  'Band/artist logotype',
  'Publisher/Studio logotype',
];

export async function readTrackFile(file: string): Promise<ParsedTrack> {
  // Covers are needed for their type, size and dimensions.
  const meta = await parseAudio(file);
  const { common } = meta;
  return {
    title: text(common.title),
    artists: rawArtists(common.artists, common.artist),
    albumArtist: text(common.albumartist),
    album: text(common.album),
    genres: (common.genre ?? []).filter((g) => g.trim() !== ''),
    trackNumber: positive(common.track.no),
    discNumber: positive(common.disk.no),
    year: positive(common.year),
    durationMs: Math.round((meta.format.duration ?? 0) * 1000),
    format: formatLabel(meta, file),
    pictures: (common.picture ?? []).map(describePicture),
    recordingMbid: text(common.musicbrainz_recordingid),
    releaseMbid: text(common.musicbrainz_albumid),
    artistMbids: (common.musicbrainz_artistid ?? []).filter((id) => id.trim() !== ''),
  };
}

/** The bytes of the picture at `pos` in the file's picture order, or undefined when there is none. */
export async function readPicture(
  file: string,
  pos: number,
): Promise<{ mime: string; data: Uint8Array } | undefined> {
  const meta = await parseAudio(file);
  const picture = meta.common.picture?.[pos];
  if (!picture) return undefined;
  return { mime: pictureMime(picture), data: picture.data };
}

/**
 * Parses the file, turning "not audio at all" into an error: music-metadata returns an empty result
 * (no container, no duration) for random bytes with an audio extension rather than throwing.
 */
async function parseAudio(file: string): Promise<IAudioMetadata> {
  let meta: IAudioMetadata;
  try {
    meta = await parseFile(file);
  } catch (err) {
    if (isErrno(err)) throw err; // ENOENT, EACCES...: callers need the original code
    const reason = messageOf(err);
    throw new Error(`Unreadable audio file: ${reason}`, { cause: err });
  }
  if (!meta.format.container || !meta.format.duration || meta.format.duration <= 0) {
    throw new Error('Not an audio file: no audio stream found');
  }
  return meta;
}

function isErrno(err: unknown): boolean {
  return err instanceof Error && errnoCode(err) !== undefined;
}

function text(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function positive(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

function rawArtists(artists: string[] | undefined, artist: string | undefined): string[] {
  const list = artists && artists.length > 0 ? artists : artist ? [artist] : [];
  return list.map((a) => a.trim()).filter((a) => a !== '');
}

function formatLabel(meta: IAudioMetadata, file: string): string {
  const container = (meta.format.container ?? '').toLowerCase();
  const codec = (meta.format.codec ?? '').toLowerCase();
  if (container === 'mpeg') return 'mp3';
  if (container === 'flac') return 'flac';
  if (container === 'wave') return 'wav';
  if (container === 'ogg') return codec.includes('opus') ? 'opus' : 'ogg';
  if (container === 'adts') return 'aac';
  // MPEG-4 reports its brands, e.g. 'M4A/isom/iso2' or 'isom/iso2/mp41'.
  if (/m4a|mp4|isom|iso\d|m4b|3gp|qt/.test(container)) return 'm4a';
  return path.extname(file).slice(1).toLowerCase() || container;
}

function describePicture(picture: IPicture, pos: number): ParsedPicture {
  const info = sniffImage(picture.data);
  return {
    type: pictureType(picture.type, pos),
    mime: info?.mime ?? pictureMime(picture),
    width: info?.width ?? null,
    height: info?.height ?? null,
    size: picture.data.length,
  };
}

/**
 * MP4 `covr` entries carry no picture type: like iTunes, the first one counts as the front cover and
 * the others as 'other'.
 */
function pictureType(type: string | undefined, pos: number): string {
  if (!type) return pos === 0 ? 'front cover' : 'other';
  const index = MM_PICTURE_TYPES.indexOf(type);
  return index >= 0 ? PICTURE_TYPES[index]! : type.toLowerCase();
}

/** The real type from the bytes when recognisable, else the declared one ('image/jpg' normalised). */
function pictureMime(picture: IPicture): string {
  const sniffed = sniffImage(picture.data)?.mime;
  if (sniffed) return sniffed;
  const declared = picture.format.toLowerCase();
  if (declared === 'image/jpg' || declared === 'jpeg') return 'image/jpeg';
  if (declared === 'png') return 'image/png';
  return declared.includes('/') ? declared : 'application/octet-stream';
}
