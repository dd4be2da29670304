import { opendirSync } from 'node:fs';
import path from 'node:path';
import { errnoCode } from '../fs/errno.js';
import type { FolderStatus, MusicFolder, ScanProblem } from '../contract/library.js';
import { folderStatus } from '../library/folder-walk.js';
import type { Logger } from '../logger.js';

const FOLDER_REASONS: Record<Exclude<FolderStatus, 'ok'>, string> = {
  missing: 'The music folder does not exist (an unmounted disk or share?)',
  unreadable: 'The music folder cannot be read (permissions?)',
};

/** The configured music folders and whether the last look found each readable. */
export class MusicFolders {
  private folders: MusicFolder[];

  /** Looks at each folder once, synchronously (at start, before anything listens). */
  constructor(dirs: string[]) {
    this.folders = dirs.map((dir) => ({ path: path.resolve(dir), status: folderStatusNow(dir) }));
  }

  /** Each folder and its status, as copies. */
  list(): MusicFolder[] {
    return this.folders.map((folder) => ({ ...folder }));
  }

  /** The folders that are missing or unreadable, with a reason for people. */
  problems(): ScanProblem[] {
    return this.folders.flatMap(({ path: folder, status }) =>
      status === 'ok' ? [] : [{ path: folder, reason: FOLDER_REASONS[status] }],
    );
  }

  /** The folders' resolved paths. */
  paths(): Set<string> {
    return new Set(this.folders.map((folder) => folder.path));
  }

  /** Looks at each folder again, with a warning for each that became missing or unreadable. */
  async refresh(logger: Logger): Promise<void> {
    const next = await Promise.all(
      this.folders.map(async (folder) => ({ path: folder.path, status: await folderStatus(folder.path) })),
    );
    next.forEach((folder, i) => {
      if (folder.status !== this.folders[i]!.status && folder.status !== 'ok')
        logger.warn('music folder not available', {
          folder: folder.path,
          reason: FOLDER_REASONS[folder.status],
        });
    });
    this.folders = next;
  }
}

/** A music folder's status, checked synchronously. */
function folderStatusNow(dir: string): FolderStatus {
  try {
    opendirSync(dir).closeSync();
    return 'ok';
  } catch (err) {
    return errnoCode(err) === 'ENOENT' ? 'missing' : 'unreadable';
  }
}

/** `file`'s path inside the music folder that holds it, with `/` (its name alone if none does). */
export function pathInFolders(dirs: readonly string[], file: string): string {
  for (const dir of dirs) {
    const inside = plainlyInside(dir, file) ?? path.relative(dir, file);
    if (inside && !inside.startsWith('..') && !path.isAbsolute(inside))
      return inside.includes('\\') ? inside.split('\\').join('/') : inside;
  }
  return file.split(/[\\/]/).slice(-1)[0] ?? '';
}

/** A `.` or `..` segment, an empty one (at either end too): what path.relative would resolve. */
const NOT_PLAIN = /^\/|(^|\/)\.\.?(\/|$)|\/\/|\/$/;

/**
 * `file` after `dir` and a `/`, when both are plain absolute POSIX paths: path.relative's answer
 * without its work (it resolves and splits both paths), which a full Subsonic sync asked for every
 * song of the library. Undefined where path.relative is to be asked.
 */
function plainlyInside(dir: string, file: string): string | undefined {
  if (path.sep !== '/' || !file.startsWith(dir) || file.charCodeAt(dir.length) !== 0x2f) return undefined;
  const inside = file.slice(dir.length + 1);
  if (!path.isAbsolute(dir) || NOT_PLAIN.test(dir.slice(1)) || NOT_PLAIN.test(inside)) return undefined;
  return inside;
}
