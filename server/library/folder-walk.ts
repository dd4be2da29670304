/**
 * Finds the audio files below the music folders. Hidden files and folders are skipped; symlinks are
 * followed, but each real folder is entered only once, so a link loop cannot hang a scan.
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

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

/** The audio files of all `dirs` in path order, and the music folders that could not be read. */
export async function findAudioFiles(
  dirs: string[],
): Promise<{ files: FoundFile[]; missingRoots: string[] }> {
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

export const isUnder = (file: string, root: string) =>
  file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
