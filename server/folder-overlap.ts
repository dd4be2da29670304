/**
 * The data folder (secret key, accounts, play history) and the music folders must lie apart. Members
 * who can write to a music folder could otherwise reach Melon's secrets from inside the library, and a
 * scan would index Melon's own files. Compared by real paths, so a link cannot hide an overlap.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';

/** The real path of `dir`; for a folder not made yet, its nearest existing parent's real path + the rest. */
function realPath(dir: string): string {
  const absolute = path.resolve(dir);
  try {
    return realpathSync.native(absolute);
  } catch {
    const parent = path.dirname(absolute);
    return parent === absolute ? absolute : path.join(realPath(parent), path.basename(absolute));
  }
}

const within = (inner: string, outer: string): boolean =>
  inner === outer || inner.startsWith(outer.endsWith(path.sep) ? outer : outer + path.sep);

/** One line naming both folders when one lies inside the other; null when they are apart. */
export function folderOverlap(dataDir: string, musicDirs: readonly string[]): string | null {
  const data = realPath(dataDir);
  for (const dir of musicDirs) {
    const music = realPath(dir);
    if (within(data, music))
      return `The data folder ${data} is inside the music folder ${music}: move one of them (MELON_DATA_DIR, MELON_LIBRARY)`;
    if (within(music, data))
      return `The music folder ${music} is inside the data folder ${data}: move one of them (MELON_DATA_DIR, MELON_LIBRARY)`;
  }
  return null;
}
