/**
 * Builds the library index (tracks, albums, artists) from the music folders (contract §7).
 *
 * - Ids are derived from stable inputs (the file's absolute path, lower-cased names), so they survive
 *   rescans and restarts.
 * - A rescan is incremental: a file whose path, size and mtime equal the previous record is not re-read.
 * - Files with an audio extension that cannot be parsed are reported in `errors`; other files are
 *   ignored silently.
 * - Fallbacks for missing tags (chosen per field): title = file name without extension and without a
 *   leading "NN - " track-number prefix; album = the parent folder's name; artist = the name of the
 *   folder above that (for `untagged/Lonely Folder/Lonely Song.mp3`: album "Lonely Folder", artist
 *   "untagged"). Folders are only used below the music folder: a file directly in it gets no album, and
 *   one a single level down gets the artist 'Unknown Artist'.
 */
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readTrackFile, type ParsedTrack } from './tags.js';
import { messageOf } from '../errors.js';

export interface ArtworkInfo {
  pos: number;
  type: string;
  mime: string;
  width: number | null;
  height: number | null;
  size: number;
}
export interface TrackRecord {
  id: string;
  path: string;
  size: number;
  mtimeMs: number;
  name: string;
  albumId: string | null;
  artistIds: string[];
  genres: string[];
  durationMs: number;
  trackNumber: number | null;
  discNumber: number | null;
  year: number | null;
  format: string;
  artwork: ArtworkInfo[];
}
export interface AlbumRecord {
  id: string;
  name: string;
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
export interface ScanProgress {
  running: boolean;
  filesSeen: number;
  filesTotal: number;
  added: number;
  updated: number;
  removed: number;
  errors: { path: string; reason: string }[];
}

export const AUDIO_EXTENSIONS = new Set([
  '.mp3',
  '.flac',
  '.m4a',
  '.mp4',
  '.aac',
  '.alac',
  '.ogg',
  '.oga',
  '.opus',
  '.wav',
]);

const UNKNOWN_ARTIST = 'Unknown Artist';
const CONCURRENCY = 4;
const PROGRESS_EVERY = 50;

// ------------------------------------------------------------------------------------------------ ids

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

// ------------------------------------------------------------------------------------- name splitting

const ARTIST_SEPARATORS = /;|\/|\s+(?:feat|ft)\.\s+|\s+&\s+/i;
const GENRE_SEPARATORS = /[;/,]/;

/** Splits, trims and drops empty parts and case-insensitive duplicates (first spelling wins). */
function splitNames(values: string[], separators: RegExp): string[] {
  const seen = new Map<string, string>();
  for (const part of values.flatMap((v) => v.split(separators))) {
    const name = part.trim();
    if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen.values()];
}

export function splitArtists(values: string[]): string[] {
  return splitNames(values, ARTIST_SEPARATORS);
}

export function splitGenres(values: string[]): string[] {
  return splitNames(values, GENRE_SEPARATORS);
}

// --------------------------------------------------------------------------------------- folder walk

interface FoundFile {
  path: string;
  /** The music folder it was found in: the fallbacks must not name folders above it. */
  root: string;
}

function isAudioFile(name: string): boolean {
  return AUDIO_EXTENSIONS.has(path.extname(name).toLowerCase());
}

/** Lists audio files below `root`, following symlinks but entering each real directory only once. */
async function walk(root: string, visited: Set<string>, out: FoundFile[]): Promise<void> {
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let info;
    let entries: Dirent[];
    try {
      info = await stat(dir);
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: nothing to scan in it
    }
    const key = `${info.dev}:${info.ino}`;
    if (visited.has(key)) continue; // symlink loop or a folder reached twice
    visited.add(key);
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      const kind = await entryKind(entry, full);
      if (kind === 'dir') pending.push(full);
      else if (kind === 'file' && isAudioFile(entry.name)) out.push({ path: full, root });
    }
  }
}

async function entryKind(entry: Dirent, full: string): Promise<'dir' | 'file' | 'other'> {
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  if (!entry.isSymbolicLink()) return 'other';
  try {
    const target = await stat(full);
    return target.isDirectory() ? 'dir' : target.isFile() ? 'file' : 'other';
  } catch {
    return 'other'; // dangling link
  }
}

async function findAudioFiles(dirs: string[]): Promise<{ files: FoundFile[]; missingRoots: string[] }> {
  const found: FoundFile[] = [];
  const visited = new Set<string>();
  const missingRoots: string[] = [];
  for (const dir of dirs) {
    const root = path.resolve(dir);
    if (!(await isReadableDir(root))) missingRoots.push(root);
    else await walk(root, visited, found);
  }
  // Path order makes "first spelling wins" and the output order independent of the file system.
  const unique = new Map(found.map((f) => [f.path, f]));
  const files = [...unique.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, missingRoots };
}

async function isReadableDir(dir: string): Promise<boolean> {
  try {
    await readdir(dir);
    return true;
  } catch {
    return false;
  }
}

const isUnder = (file: string, root: string) =>
  file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

// ---------------------------------------------------------------------------------- track building

interface AlbumRef {
  id: string;
  name: string;
  artists: ArtistRecord[];
  year: number | null;
}

/** One track of the new index with the artist and album names it contributes. */
interface Entry {
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

function entryFromTags(file: FoundFile, parsed: ParsedTrack, size: number, mtimeMs: number): Entry {
  const fallback = folderFallbacks(file.path, file.root);
  const artistNames = splitArtists(parsed.artists);
  if (artistNames.length === 0) artistNames.push(fallback.artist);
  const artists = toArtists(artistNames);
  const albumTitle = parsed.album ?? fallback.album;
  // Albums are keyed by title + album artist, so one album's tracks stay together despite guest artists.
  const albumArtist = parsed.albumArtist ?? artistNames[0]!;
  const album: AlbumRef | null = albumTitle
    ? {
        id: albumId(albumTitle, albumArtist),
        name: albumTitle,
        artists: toArtists(splitArtists([albumArtist])),
        year: parsed.year,
      }
    : null;
  // name first: the record's keys follow TrackRecord's order, which keeps stored JSON readable.
  const { name, ...fields } = trackFields(parsed, file.path);
  const track: TrackRecord = {
    id: trackId(file.path),
    path: file.path,
    size,
    mtimeMs,
    name,
    albumId: album?.id ?? null,
    artistIds: artists.map((a) => a.id),
    ...fields,
  };
  return { track, artists, album };
}

/** The fields a re-read refreshes (everything except the identity and the links). */
function trackFields(parsed: ParsedTrack, file: string) {
  return {
    name: parsed.title ?? titleFromFileName(file),
    genres: splitGenres(parsed.genres),
    durationMs: parsed.durationMs,
    trackNumber: parsed.trackNumber,
    discNumber: parsed.discNumber,
    year: parsed.year,
    format: parsed.format,
    artwork: artwork(parsed),
  };
}

interface PreviousLookup {
  artists: Map<string, ArtistRecord>;
  albums: Map<string, AlbumRecord>;
}

function lookup(previous: LibraryIndex): PreviousLookup {
  return {
    artists: new Map(previous.artists.map((a) => [a.id, a])),
    albums: new Map(previous.albums.map((a) => [a.id, a])),
  };
}

/** Rebuilds the names an unchanged (not re-read) track contributes from the previous index. */
function entryFromPrevious(track: TrackRecord, previous: PreviousLookup): Entry {
  const artistsOf = (ids: string[]): ArtistRecord[] =>
    ids.flatMap((id) => {
      const artist = previous.artists.get(id);
      return artist ? [artist] : [];
    });
  const prevAlbum = track.albumId === null ? undefined : previous.albums.get(track.albumId);
  const album = prevAlbum ? { ...prevAlbum, artists: artistsOf(prevAlbum.artistIds) } : null;
  return { track, artists: artistsOf(track.artistIds), album };
}

// ------------------------------------------------------------------------------------- index merge

/** Merges the entries (in path order) into albums and artists; unreferenced ones simply never appear. */
function buildIndex(entries: Entry[]): LibraryIndex {
  const artists = new Map<string, ArtistRecord>();
  const albums = new Map<string, AlbumRecord>();
  const addArtists = (list: ArtistRecord[]): void => {
    for (const a of list) if (!artists.has(a.id)) artists.set(a.id, { id: a.id, name: a.name });
  };
  for (const { artists: trackArtists, album } of entries) {
    addArtists(trackArtists);
    if (!album) continue;
    addArtists(album.artists);
    const known = albums.get(album.id);
    if (!known) {
      const artistIds = album.artists.map((a) => a.id);
      albums.set(album.id, { id: album.id, name: album.name, artistIds, year: album.year });
    } else if (known.year === null) known.year = album.year;
  }
  return {
    tracks: entries.map((e) => e.track),
    albums: [...albums.values()],
    artists: [...artists.values()],
  };
}

// ------------------------------------------------------------------------------------------- scanning

/** Runs `task` over `items` with at most `limit` running at once; results keep the items' order. */
async function mapLimited<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export async function scanLibrary(
  dirs: string[],
  previous: LibraryIndex,
  onProgress?: (p: ScanProgress) => void,
): Promise<{ index: LibraryIndex; progress: ScanProgress }> {
  const { files, missingRoots } = await findAudioFiles(dirs);
  const progress: ScanProgress = {
    running: true,
    filesSeen: 0,
    filesTotal: files.length,
    added: 0,
    updated: 0,
    removed: 0,
    errors: [],
  };
  const report = (): void => onProgress?.({ ...progress, errors: [...progress.errors] });
  report();
  const previousByPath = new Map(previous.tracks.map((t) => [t.path, t]));
  const previousNames = lookup(previous);

  const scanOne = async (file: FoundFile): Promise<Entry | null> => {
    const old = previousByPath.get(file.path);
    try {
      const info = await stat(file.path);
      if (old && old.size === info.size && old.mtimeMs === info.mtimeMs)
        return entryFromPrevious(old, previousNames);
      const entry = entryFromTags(file, await readTrackFile(file.path), info.size, info.mtimeMs);
      if (old) progress.updated++;
      else progress.added++;
      return entry;
    } catch (err) {
      progress.errors.push({ path: file.path, reason: messageOf(err) });
      return null;
    } finally {
      progress.filesSeen++;
      if (progress.filesSeen % PROGRESS_EVERY === 0) report();
    }
  };

  const entries = (await mapLimited(files, CONCURRENCY, scanOne)).filter((e): e is Entry => e !== null);
  // A music folder that is not there (an unmounted disk or share) is an error, not an empty folder:
  // its tracks stay in the library until a scan can read it again.
  for (const root of missingRoots) {
    progress.errors.push({
      path: root,
      reason: 'The music folder is missing or unreadable; its tracks were kept',
    });
    for (const track of previous.tracks)
      if (isUnder(track.path, root)) entries.push(entryFromPrevious(track, previousNames));
  }
  if (missingRoots.length > 0) entries.sort((a, b) => (a.track.path < b.track.path ? -1 : 1));
  const kept = new Set(entries.map((e) => e.track.path));
  // A previously indexed file that vanished, or now fails to parse, leaves the index.
  progress.removed = previous.tracks.filter((t) => !kept.has(t.path)).length;
  progress.errors.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  progress.running = false;
  report();
  return { index: buildIndex(entries), progress };
}

/** Re-reads one file (e.g. after its artwork changed) keeping its identity and its album/artist links. */
export async function rereadTrack(track: TrackRecord): Promise<TrackRecord> {
  const info = await stat(track.path);
  const parsed = await readTrackFile(track.path);
  return { ...track, size: info.size, mtimeMs: info.mtimeMs, ...trackFields(parsed, track.path) };
}
