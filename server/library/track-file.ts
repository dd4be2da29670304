/**
 * Opening a track's audio file so that what is read is the file the scanner indexed, and nothing
 * else. Members who can write to a music folder can swap a track for a symbolic link (to Melon's own
 * secret key, to another home) or for another file at any moment, and the swap may be in the file's
 * name or in any folder above it. Checking the path first and opening it after leaves a gap, so the
 * checks run on the opened descriptor instead:
 * - it is a regular file (`fstat`), never a device, FIFO or folder;
 * - its device and inode are the ones the scan recorded;
 * - where it really is (`/proc/self/fd/N`; elsewhere the real path, compared with the descriptor's
 *   inode) lies inside a music folder.
 * Every reader (streams, downloads, ffmpeg, pictures, tag reads, artwork edits) takes the handle this
 * returns and reads from it, never from the path again.
 *
 * `O_NOFOLLOW` is not used: a link that stays inside the music folders is a track like any other, and
 * it would not cover links in the folders above anyway; the checks after opening are what count.
 * `O_NONBLOCK` keeps a FIFO swapped in for a track from holding a thread until someone writes to it.
 */
import { constants, readlinkSync, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../fs/errno.js';

/** Where a file is, as the scan saw it: a swap for a link or another file changes one of them. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

export type RefusalReason =
  | 'missing'
  | 'not_regular'
  | 'outside_music_folders'
  | 'replaced'
  /** The record has no identity yet (kept before identities were): its next scan gives it one. */
  | 'unverified';

/** The file at a track's path is not the track's file; nothing of it was read. */
export class TrackFileRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'TrackFileRefused';
  }
}

/** An open, checked track file. The owner closes `handle` (a stream made from it may do that). */
export interface OpenedTrackFile {
  handle: FileHandle;
  /** `fstat` of the handle. */
  stat: Stats;
  /** The path the opened file really has, inside a music folder. */
  realPath: string;
  /** The path it was opened by (the track's), for names and extensions. */
  path: string;
}

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES', 'EPERM', 'ENXIO', 'EISDIR']);
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The real paths of the music folders that exist now; links must lead below one of them. */
export async function realMusicFolders(dirs: readonly string[]): Promise<string[]> {
  const real = await Promise.all(dirs.map((dir) => realpath(path.resolve(dir)).catch(() => null)));
  return real.filter((dir): dir is string => dir !== null);
}

/**
 * Opens `file` and checks the open descriptor (see the module comment). `expected` is the identity
 * the scan recorded; a scan itself, which is about to record it, passes null. Rejects with
 * TrackFileRefused when the file is missing or fails a check; the handle is closed then.
 */
export async function openTrackFile(
  file: string,
  roots: readonly string[],
  expected: FileIdentity | null,
): Promise<OpenedTrackFile> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    if (MISSING.has(errnoCode(error) ?? '')) throw new TrackFileRefused('missing', 'The file is missing');
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new TrackFileRefused('not_regular', 'Not a regular file');
    if (expected && (info.dev !== expected.dev || info.ino !== expected.ino))
      throw new TrackFileRefused('replaced', 'Not the file the scan indexed (another device or inode)');
    const realPath = await whereOpened(handle, file, info);
    if (!roots.some((root) => isInside(realPath, root)))
      throw new TrackFileRefused('outside_music_folders', 'The file lies outside the music folders');
    return { handle, stat: info, realPath, path: file };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The real path of the opened file. */
async function whereOpened(handle: FileHandle, file: string, info: Stats): Promise<string> {
  if (process.platform === 'linux') {
    try {
      // The kernel's own record of what this descriptor opened: no path is looked up again. Read
      // synchronously: /proc answers from the kernel's table of open files, never from a disk or a
      // share, so it cannot hold up the server, and every open saves a trip through the thread pool.
      return readlinkSync(`/proc/self/fd/${handle.fd}`);
    } catch {
      // No /proc mounted (a container without it): fall through to the portable check.
    }
  }
  let real: string;
  let now: Stats;
  try {
    real = await realpath(file);
    now = await stat(real);
  } catch {
    throw new TrackFileRefused('replaced', 'The file changed while it was opened');
  }
  // The real path must name the very file that is open, or a swap came between the two.
  if (now.dev !== info.dev || now.ino !== info.ino)
    throw new TrackFileRefused('replaced', 'The file changed while it was opened');
  return real;
}

const isInside = (file: string, root: string): boolean =>
  file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
