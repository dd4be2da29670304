/**
 * Reads tags, duration and embedded pictures of one audio file with music-metadata. The values are raw
 * (credits and genres unsplit): the scanner decides how to split and merge them (artist-credit.ts).
 */
import type { IAudioMetadata, IPicture, IOptions } from 'music-metadata';
import path from 'node:path';
import { messageOf } from '../errors.js';
import { errnoCode } from '../fs/errno.js';
import { FileWindow } from './file-window.js';
import { adtsDuration, mpegDuration } from './frame-count.js';
import { oggDuration } from './ogg-duration.js';
import { oggPictures } from './ogg-pictures.js';
import { sharingTagMappers } from './shared-tag-mappers.js';
import { sniffImage, type ImageMime } from './image-info.js';
import { utf8FromLatin1 } from './latin1-utf8.js';
import type { OpenedTrackFile } from './track-file.js';

/**
 * What is read: a checked, open track file (library/track-file.ts), which the server always passes,
 * or a path, which only tools and tests use.
 */
export type AudioSource = string | OpenedTrackFile;

const pathOf = (source: AudioSource): string => (typeof source === 'string' ? source : source.path);

type Parse = (window: FileWindow, file: string, options: IOptions) => Promise<IAudioMetadata>;
let parser: Promise<Parse> | undefined;

/**
 * music-metadata and its tokenizer, loaded at the first file read: a server that is only started
 * and asked for music already scanned never reads a tag, and need not hold the reader in memory.
 */
function loadParser(): Promise<Parse> {
  parser ??= Promise.all([import('music-metadata'), import('./window-tokenizer.js')]).then(
    ([{ parseFromTokenizer }, { WindowTokenizer }]) =>
      (window, file, options) =>
        parseFromTokenizer(WindowTokenizer.of(window, file), options),
  );
  return parser;
}

/** Runs `use` over a window on the file; a path is opened for it and closed after. */
async function withAudio<T>(file: AudioSource, use: (window: FileWindow) => Promise<T>): Promise<T> {
  const window =
    typeof file === 'string'
      ? await FileWindow.open(file)
      : await FileWindow.open(file.handle, file.stat.size);
  try {
    return await use(window);
  } finally {
    await window.close();
  }
}

export interface ParsedPicture {
  /**
   * Lower-case picture kind, e.g. 'front cover', 'back cover', 'other'; `unsupported` for a picture
   * whose bytes are not a raster image (it keeps its place, so positions still match the file).
   */
  type: string;
  /** The type sniffed from the bytes; `application/octet-stream` for an unsupported picture. */
  mime: string;
  width: number | null;
  height: number | null;
  size: number;
}

export interface ParsedTrack {
  title: string | null;
  /** The ARTIST tag whole, as credited ("Simon & Garfunkel"); its first value when there are several. */
  artist: string | null;
  /** The artists the file lists one by one (ARTISTS, or several ARTIST values); else [artist] or []. */
  artists: string[];
  albumArtist: string | null;
  /** The same for the album artist (ALBUMARTISTS). */
  albumArtists: string[];
  albumArtistMbids: string[];
  album: string | null;
  genres: string[];
  trackNumber: number | null;
  discNumber: number | null;
  year: number | null;
  durationMs: number;
  /** 'mp3' | 'flac' | 'm4a' | 'ogg' | 'opus' | 'wav' | 'aiff' | 'wma' (or 'aac' for raw ADTS streams). */
  format: string;
  pictures: ParsedPicture[];
  recordingMbid: string | null;
  releaseMbid: string | null;
  artistMbids: string[];
}

/** Files music-metadata reads as Ogg, whose pictures it is not asked for. */
const OGG_EXTENSIONS = new Set(['.ogg', '.oga', '.opus', '.spx']);

/** The `type` of a picture whose bytes are not an image the server serves. */
export const UNSUPPORTED_PICTURE = 'unsupported';

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

export function readTrackFile(file: AudioSource): Promise<ParsedTrack> {
  return withAudio(file, (window) => trackOf(window, pathOf(file)));
}

async function trackOf(window: FileWindow, file: string): Promise<ParsedTrack> {
  // Covers are needed for their type, size and dimensions.
  const { meta, duration } = await parseAudio(window, file);
  const pictures = isOgg(meta) ? await oggPicturesAsTags(window) : (meta.common.picture ?? []);
  const { common } = meta;
  const fix = latin1Repair(meta);
  return {
    title: text(fix(common.title)),
    artist: text(fix(common.artist)),
    artists: rawArtists(common.artists?.map(fix), fix(common.artist)),
    albumArtist: text(fix(common.albumartist)),
    albumArtists: rawArtists(common.albumartists?.map(fix), fix(common.albumartist)),
    albumArtistMbids: nonEmpty(common.musicbrainz_albumartistid),
    album: text(fix(common.album)),
    genres: (common.genre ?? []).map(fix).filter((g) => g.trim() !== ''),
    trackNumber: positive(common.track.no),
    discNumber: positive(common.disk.no),
    year: positive(common.year),
    durationMs: Math.round(duration * 1000),
    format: formatLabel(meta, file),
    pictures: pictures.map(describePicture),
    recordingMbid: text(common.musicbrainz_recordingid),
    releaseMbid: text(common.musicbrainz_albumid),
    artistMbids: nonEmpty(common.musicbrainz_artistid),
  };
}

/**
 * The picture at `pos` in the file's picture order, or undefined when there is none. `mime` is the
 * type sniffed from the bytes, null when they are not a raster image: the type the tag declares is
 * never used, since a "picture" may be HTML or SVG with script in it.
 */
export async function readPicture(
  file: AudioSource,
  pos: number,
): Promise<{ mime: ImageMime | null; data: Uint8Array } | undefined> {
  return withAudio(file, async (window) => {
    const meta = await parseMetadata(window, pathOf(file), false);
    const picture = (isOgg(meta) ? await oggPicturesAsTags(window) : meta.common.picture)?.[pos];
    if (!picture) return undefined;
    return { mime: sniffImage(picture.data)?.mime ?? null, data: picture.data };
  });
}

/**
 * Parses the file and finds its duration, turning "not audio at all" into an error: music-metadata
 * returns an empty result (no container, no duration) for random bytes with an audio extension
 * rather than throwing. music-metadata reads only the headers here; where they do not hold an exact
 * length (MP3, ADTS, Ogg) our own readers find it without reading the file through, and only when
 * they cannot does music-metadata read it to the end.
 */
async function parseAudio(
  window: FileWindow,
  file: string,
): Promise<{ meta: IAudioMetadata; duration: number }> {
  let meta = await parseMetadata(window, file, false);
  let duration = (await countedDuration(meta, window)) ?? meta.format.duration;
  if (meta.format.container && !duration) {
    meta = await parseMetadata(window, file, true);
    duration = meta.format.duration;
  }
  if (!meta.format.container || !duration || duration <= 0) {
    throw new Error('Not an audio file: no audio stream found');
  }
  return { meta, duration };
}

function isOgg(meta: IAudioMetadata): boolean {
  return meta.format.container?.toLowerCase() === 'ogg';
}

/** An Ogg file's pictures as music-metadata would list them (see ogg-pictures.ts). */
async function oggPicturesAsTags(window: FileWindow): Promise<IPicture[]> {
  try {
    const pictures = await oggPictures(window);
    return pictures.map((p) => ({ type: MM_PICTURE_TYPES[p.type] ?? 'Other', format: p.mime, data: p.data }));
  } catch (err) {
    if (isErrno(err)) throw err;
    return [];
  }
}

/** music-metadata's reading of the file's tags with these options (lyrics and the like). */
export function readMetadata(
  file: AudioSource,
  options: { skipCovers: boolean; duration: boolean },
): Promise<IAudioMetadata> {
  return withAudio(file, async (window) => (await loadParser())(window, pathOf(file), options));
}

/**
 * music-metadata skips Ogg pictures (read by ogg-pictures.ts instead); other formats' pictures come
 * from it, as their bytes are copied out and not decoded from text.
 */
async function parseMetadata(window: FileWindow, file: string, duration: boolean): Promise<IAudioMetadata> {
  const skipCovers = OGG_EXTENSIONS.has(path.extname(file).toLowerCase());
  const parse = await loadParser();
  try {
    return await parse(window, file, { duration, skipCovers, ...sharingTagMappers() });
  } catch (err) {
    if (isErrno(err)) throw err; // ENOENT, EACCES...: callers need the original code
    const reason = messageOf(err);
    throw new Error(`Unreadable audio file: ${reason}`, { cause: err });
  }
}

/**
 * The exact duration of the streams whose headers music-metadata can only estimate from (see
 * frame-count.ts), or whose length is only in their last page (see ogg-duration.ts).
 */
async function countedDuration(meta: IAudioMetadata, window: FileWindow): Promise<number | null> {
  const container = (meta.format.container ?? '').toLowerCase();
  try {
    if (container === 'ogg') return await oggDuration(window);
    if (container === 'mpeg') return await mpegDuration(window);
    // music-metadata names raw AAC 'ADTS/MPEG-4' (or 'ADTS/MPEG-2').
    if (container.startsWith('adts')) return await adtsDuration(window);
  } catch (err) {
    if (isErrno(err)) throw err;
  }
  return null;
}

/**
 * The tag text that came from RIFF INFO or ID3v1 (no encoding field; read as Latin-1) is re-decoded
 * as UTF-8 where it is valid UTF-8. Text from tags that declare their encoding is left alone.
 */
function latin1Repair(meta: IAudioMetadata): <T extends string | undefined>(value: T) => T {
  const latin1 = new Set<string>();
  for (const tagType of ['exif', 'ID3v1', 'AIFF'])
    for (const tag of meta.native[tagType] ?? []) if (typeof tag.value === 'string') latin1.add(tag.value);
  return <T extends string | undefined>(value: T): T =>
    value !== undefined && latin1.has(value) ? (utf8FromLatin1(value) as T) : value;
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

function nonEmpty(values: string[] | undefined): string[] {
  return (values ?? []).filter((v) => v.trim() !== '');
}

function formatLabel(meta: IAudioMetadata, file: string): string {
  const container = (meta.format.container ?? '').toLowerCase();
  const codec = (meta.format.codec ?? '').toLowerCase();
  if (container === 'mpeg') return 'mp3';
  if (container === 'flac') return 'flac';
  if (container === 'wave') return 'wav';
  if (container === 'ogg') return codec.includes('opus') ? 'opus' : 'ogg';
  if (container.startsWith('adts')) return 'aac';
  if (container === 'aiff' || container === 'aiff-c') return 'aiff';
  if (container.startsWith('asf')) return 'wma';
  // MPEG-4 reports its brands, e.g. 'M4A/isom/iso2' or 'isom/iso2/mp41'.
  if (/m4a|mp4|isom|iso\d|m4b|3gp|qt/.test(container)) return 'm4a';
  return path.extname(file).slice(1).toLowerCase() || container;
}

function describePicture(picture: IPicture, pos: number): ParsedPicture {
  const info = sniffImage(picture.data);
  return {
    type: info ? pictureType(picture.type, pos) : UNSUPPORTED_PICTURE,
    mime: info?.mime ?? 'application/octet-stream',
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
