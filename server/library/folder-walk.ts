/**
 * Finds the audio files below the music folders. Hidden files and folders are skipped. Symlinks are
 * followed only when they lead to a place inside a music folder (a link to `/etc` or to another
 * user's home must not put those files in the library); each real folder is entered only once, so a
 * link loop cannot hang a scan. What cannot be followed or read is reported as a problem.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FolderStatus, ScanProblem } from '../contract/library.js';
import { errnoCode } from '../fs/errno.js';
import { FolderLister } from './folder-lister.js';

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
  '.aif',
  '.aiff',
  '.aifc',
  '.wma',
]);

export interface FoundFile {
  path: string;
  /** The music folder it was found in: the fallbacks must not name folders above it. */
  root: string;
}

export interface WalkResult {
  files: FoundFile[];
  /** Each configured music folder (resolved) and whether it could be read. */
  roots: Array<{ path: string; status: FolderStatus }>;
  problems: ScanProblem[];
}

export const OUTSIDE_LINK_REASON = 'Symbolic link to a place outside the music folders: not followed';

function isAudioFile(name: string): boolean {
  return AUDIO_EXTENSIONS.has(path.extname(name).toLowerCase());
}

interface WalkState {
  visited: Set<string>;
  /** The real paths of the readable music folders: links must stay below one of them. */
  realRoots: string[];
  files: FoundFile[];
  problems: ScanProblem[];
  lister: FolderLister;
}

/**
 * Lists audio files below `root`, entering each real directory only once. Folders are listed
 * several at a time (as many as the lister asks for), but a folder reached through a link is entered only after every folder
 * reached without one, and links one after another in path order: a folder reachable both ways is
 * then always found under the same path (its own), whatever order the disk answers in, so its
 * tracks keep their ids from one scan to the next.
 */
async function walk(root: string, state: WalkState): Promise<void> {
  const links: string[] = [];
  await listInParallel([root], root, state, links);
  while (links.length > 0) {
    links.sort(byPath);
    await listInParallel([links.shift()!], root, state, links);
  }
}

/** Lists `pending` and the folders below them that are not links, several at a time. */
function listInParallel(pending: string[], root: string, state: WalkState, links: string[]): Promise<void> {
  let listing = 0;
  return new Promise<void>((resolve, reject) => {
    const next = (): void => {
      while (listing < state.lister.concurrency && pending.length > 0) {
        listing++;
        listFolder(pending.pop()!, root, state, { folders: pending, links }).then(() => {
          listing--;
          next();
        }, reject);
      }
      if (listing === 0 && pending.length === 0) resolve();
    };
    next();
  });
}

async function listFolder(
  dir: string,
  root: string,
  state: WalkState,
  found: { folders: string[]; links: string[] },
): Promise<void> {
  const listing = await state.lister.list(dir);
  if ('error' in listing) {
    state.problems.push({ path: dir, reason: `Folder could not be read (${listing.error})` });
    return;
  }
  const key = `${listing.dev}:${listing.ino}`;
  if (state.visited.has(key)) return; // symlink loop or a folder reached twice
  state.visited.add(key);
  const { names, kinds } = listing;
  // Names from a listing hold no separator: joined as they are, with nothing to normalise.
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (name.startsWith('.')) continue;
    const full = prefix + name;
    // Plain files and folders need no look at the disk; only links are followed and checked.
    const link = kinds[i] === 'link';
    const kind = link ? await linkKind(name, full, state) : kinds[i]!;
    if (kind === 'dir') (link ? found.links : found.folders).push(full);
    else if (kind === 'file' && isAudioFile(name)) state.files.push({ path: full, root });
  }
}

async function linkKind(name: string, full: string, state: WalkState): Promise<'dir' | 'file' | 'other'> {
  let target;
  let real;
  try {
    real = await realpath(full);
    target = await stat(real);
  } catch {
    return 'other'; // dangling link
  }
  const kind = target.isDirectory() ? 'dir' : target.isFile() ? 'file' : 'other';
  if (kind === 'other' || (kind === 'file' && !isAudioFile(name))) return kind;
  if (!state.realRoots.some((root) => real === root || isUnder(real, root))) {
    state.problems.push({ path: full, reason: OUTSIDE_LINK_REASON });
    return 'other';
  }
  return kind;
}

export interface WalkOptions {
  /** Stops the walk: it rejects, and its workers are stopped. */
  signal?: AbortSignal;
  /** Lists the folders (tests pass one that uses its workers from the first folder). */
  lister?: FolderLister;
}

/** The audio files of all `dirs` in path order, each music folder's status, and what was skipped. */
export async function findAudioFiles(
  dirs: string[],
  { signal, lister = new FolderLister(undefined, signal) }: WalkOptions = {},
): Promise<WalkResult> {
  const state: WalkState = {
    visited: new Set(),
    realRoots: [],
    files: [],
    problems: [],
    lister,
  };
  const roots: WalkResult['roots'] = [];
  for (const dir of dirs) {
    const root = path.resolve(dir);
    const status = await folderStatus(root);
    roots.push({ path: root, status });
    if (status === 'ok') state.realRoots.push(await realpath(root).catch(() => root));
  }
  try {
    for (const { path: root, status } of roots) if (status === 'ok') await walk(root, state);
  } finally {
    await state.lister.close();
  }
  // Path order makes "first spelling wins" and the output order independent of the file system.
  const unique = new Map(state.files.map((f) => [f.path, f]));
  const files = [...unique.values()].sort((a, b) => byPath(a.path, b.path));
  return { files, roots, problems: state.problems };
}

/** Two paths in the order scans list them (by code unit, as the file system gives no order). */
export const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether a music folder can be scanned: missing (an unmounted disk or share) or unreadable. */
export async function folderStatus(dir: string): Promise<FolderStatus> {
  try {
    await readdir(dir);
    return 'ok';
  } catch (err) {
    return errnoCode(err) === 'ENOENT' ? 'missing' : 'unreadable';
  }
}

export const isUnder = (file: string, root: string) =>
  file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
