/**
 * Builds the library index (tracks, albums, artists) from the music folders (docs/API.md, Library).
 *
 * - Ids are derived from stable inputs (see domain/library-ids.ts), so they survive rescans and restarts.
 * - A rescan is incremental: a file whose path, size and mtime equal the previous record is not re-read.
 * - Files with an audio extension that cannot be parsed are reported in `errors`, with symlinks
 *   that lead outside the music folders and folders that cannot be read; other files are ignored
 *   silently.
 * - Missing tags fall back to file and folder names (see track-entry.ts).
 */
import type { ScanStatus } from '../contract/library.js';
import {
  plainTrack,
  type AlbumRecord,
  type ArtistRecord,
  type LibraryIndex,
  type TrackRecord,
} from '../domain/library.js';
import { messageOf } from '../errors.js';
import { statFiles } from './file-stats.js';
import { byPath, findAudioFiles, isUnder, type FoundFile } from './folder-walk.js';
import { whileReadingFiles } from './scan-reading.js';
import { readTrackFile } from './tags.js';
import { openTrackFile, realMusicFolders } from './track-file.js';
import { entryFromPrevious, entryFromTags, lookup, type Entry } from './track-entry.js';

/** The API's scan status without its capped problem list (the library service adds that). */
export type ScanProgress = Omit<ScanStatus, 'problems' | 'problemCount'>;

/** Files read at once: tag reads hold buffers and CPU, so few. */
const CONCURRENCY = 4;
const PROGRESS_EVERY = 50;

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
      const credit = album.artist === undefined ? {} : { artist: album.artist };
      albums.set(album.id, { id: album.id, name: album.name, ...credit, artistIds, year: album.year });
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
  signal?: AbortSignal,
): Promise<{ index: LibraryIndex; progress: ScanProgress }> {
  const { files, roots, problems } = await findAudioFiles(dirs, { signal });
  const missingRoots = roots.filter((r) => r.status !== 'ok').map((r) => r.path);
  const progress: ScanProgress = {
    running: true,
    filesSeen: 0,
    filesTotal: files.length,
    added: 0,
    updated: 0,
    removed: 0,
    errors: [...problems],
  };
  const report = (): void => onProgress?.({ ...progress, errors: [...progress.errors] });
  report();
  const previousByPath = new Map(previous.tracks.map((t) => [t.path, t]));
  const previousNames = lookup(previous);
  const realRoots = await realMusicFolders(dirs);

  const countSeen = (): void => {
    progress.filesSeen++;
    if (progress.filesSeen % PROGRESS_EVERY === 0) report();
  };

  // A file whose size, time and inode are what the library holds is not opened: nothing of it is
  // read, and every later read of it opens and checks it (track-file.ts) against that inode. Its
  // record is kept (with today's device number), by the file's place in `files`.
  const same = new Array<TrackRecord | undefined>(files.length);
  let sameFiles = 0;
  let movedDevice = false;
  // A record without a credited artist was made by an older Melon, which split credits on `&` and
  // `,`: it is read again, so its artists follow the rules of today. A record without an identity
  // gets one from the checked open below.
  // Each known file's place in `files` and its record, side by side (no object a file).
  const known: number[] = [];
  const knownRecords: TrackRecord[] = [];
  for (let i = 0; i < files.length; i++) {
    const old = previousByPath.get(files[i]!.path);
    if (old && old.artist !== undefined && old.ino !== undefined) {
      known.push(i);
      knownRecords.push(old);
    }
  }
  await statFiles(
    known.map((i) => files[i]!.path),
    (k, info) => {
      const i = known[k]!;
      const old = knownRecords[k]!;
      // The device number alone may change when a share or disk is mounted again: same inode,
      // size and time is the same file.
      if (!info || info.size !== old.size || info.mtimeMs !== old.mtimeMs || info.ino !== old.ino) return;
      countSeen();
      sameFiles++;
      if (info.dev === old.dev) same[i] = old;
      else {
        same[i] = { ...plainTrack(old), dev: info.dev };
        movedDevice = true;
      }
    },
    { signal },
  );

  const scanOne = async (file: FoundFile): Promise<Entry | null> => {
    signal?.throwIfAborted();
    const old = previousByPath.get(file.path);
    try {
      // Opened and checked like every read of a track: a link swapped in after the walk looked at
      // this name still cannot lead outside the music folders.
      const opened = await openTrackFile(file.path, realRoots, null);
      try {
        const { size, mtimeMs, dev, ino } = opened.stat;
        const unchanged = old && old.size === size && old.mtimeMs === mtimeMs && (old.ino ?? ino) === ino;
        if (unchanged && old.artist !== undefined)
          return entryFromPrevious({ ...plainTrack(old), dev, ino }, previousNames);
        const entry = entryFromTags(file, await readTrackFile(opened), opened.stat);
        if (old) progress.updated++;
        else progress.added++;
        return entry;
      } finally {
        await opened.handle.close();
      }
    } catch (err) {
      progress.errors.push({ path: file.path, reason: messageOf(err) });
      return null;
    } finally {
      countSeen();
    }
  };

  const toRead = files.filter((_, i) => same[i] === undefined);
  // V8 is set for reading files meanwhile (scan-reading.ts); a rescan that finds every file
  // unchanged reads none and leaves it be.
  const read =
    toRead.length === 0 ? [] : await whileReadingFiles(() => mapLimited(toRead, CONCURRENCY, scanOne));
  // Every record's file is the one it describes, and no other file could be read (none is new, or
  // those that are cannot be read, as before): the library stays as it is, and nothing is made for
  // it (at a collector's size, an index of every track again).
  if (
    sameFiles === previous.tracks.length &&
    !movedDevice &&
    missingRoots.length === 0 &&
    read.every((entry) => entry === null)
  ) {
    progress.errors.sort((a, b) => byPath(a.path, b.path));
    progress.running = false;
    report();
    return {
      index: { tracks: [...previous.tracks], albums: [...previous.albums], artists: [...previous.artists] },
      progress,
    };
  }
  let nextRead = 0;
  const entries: Entry[] = [];
  for (let i = 0; i < files.length; i++) {
    const record = same[i];
    const entry = record ? entryFromPrevious(record, previousNames) : read[nextRead++];
    if (entry) entries.push(entry);
  }
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
  if (missingRoots.length > 0) entries.sort((a, b) => byPath(a.track.path, b.track.path));
  const keptPaths = new Set(entries.map((e) => e.track.path));
  // A previously indexed file that vanished, or now fails to parse, leaves the index.
  progress.removed = previous.tracks.filter((t) => !keptPaths.has(t.path)).length;
  progress.errors.sort((a, b) => byPath(a.path, b.path));
  progress.running = false;
  report();
  return { index: buildIndex(entries), progress };
}
