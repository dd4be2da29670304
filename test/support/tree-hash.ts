import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * sha256 of every file under the given folders, keyed `label/relative-path`. A file whose inode,
 * size and modification time are unchanged since the last snapshot is not read again; any write
 * (an atomic rename makes a new inode) is hashed afresh, so a rewrite with equal bytes still compares
 * equal and a changed byte never goes unseen.
 */
export class TreeHasher {
  private readonly cache = new Map<string, { stamp: string; hash: string }>();
  /** Folder listings by path, valid while the folder's own change time stays the same. */
  private readonly listings = new Map<string, { stamp: bigint; files: string[]; dirs: string[] }>();

  constructor(private readonly roots: Record<string, string>) {}

  snapshot(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [label, root] of Object.entries(this.roots)) {
      for (const file of this.files(root)) {
        const stat = statSync(file, { bigint: true });
        const stamp = `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
        let cached = this.cache.get(file);
        if (!cached || cached.stamp !== stamp) {
          cached = { stamp, hash: createHash('sha256').update(readFileSync(file)).digest('hex') };
          this.cache.set(file, cached);
        }
        out.set(`${label}/${relative(root, file)}`, cached.hash);
      }
    }
    return out;
  }

  /** Every file under `dir`; a folder is listed again only when an entry was added, removed or renamed. */
  private files(dir: string): string[] {
    const stamp = statSync(dir, { bigint: true }).ctimeNs;
    let listing = this.listings.get(dir);
    if (!listing || listing.stamp !== stamp) {
      const entries = readdirSync(dir, { withFileTypes: true });
      listing = {
        stamp,
        files: entries.filter((e) => e.isFile()).map((e) => join(dir, e.name)),
        dirs: entries.filter((e) => e.isDirectory()).map((e) => join(dir, e.name)),
      };
      this.listings.set(dir, listing);
    }
    return [...listing.files, ...listing.dirs.flatMap((sub) => this.files(sub))].sort();
  }
}

/** The paths that were added (+), removed (-) or changed (~) between two snapshots. */
export function treeDiff(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const [path, hash] of after) {
    const old = before.get(path);
    if (old === undefined) changed.push(`+${path}`);
    else if (old !== hash) changed.push(`~${path}`);
  }
  for (const path of before.keys()) if (!after.has(path)) changed.push(`-${path}`);
  return changed.sort();
}

export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
