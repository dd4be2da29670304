import type { IndexTables } from './index-tables.js';
import type { CountedAs } from './snapshots.js';

/**
 * The snapshots whose plays count otherwise than they logged (SnapshotTable.recount), with what they
 * count for: the counting saved with the index for the library it was made with.
 */
export function countedOtherwise({ snapshots, albums, artists, names }: IndexTables): CountedAs[] {
  const logged = snapshots.logged();
  const moved: CountedAs[] = [];
  for (let s = 0; s < snapshots.count; s += 1) {
    const album = snapshots.album[s]!;
    if (
      album === logged.album.data[s] &&
      snapshots.artists.same(s, logged.artists, s) &&
      snapshots.artistNames.same(s, logged.artistNames, s)
    )
      continue;
    moved.push({
      s,
      albumId: album < 0 ? null : albums.values[album]!,
      artistIds: snapshots.artists.of(s).map((a) => artists.values[a]!),
      artistNames: snapshots.artistNames.of(s).map((n) => names.values[n]!),
    });
  }
  return moved;
}
