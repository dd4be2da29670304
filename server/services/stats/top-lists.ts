import type { IndexTables } from './index-tables.js';
import type { RecentItem, TopItem } from './results.js';
import { foldKind } from './scans.js';
import type { Kind, Tally } from './tally.js';
import { byPlays, byRecency, select } from './top-n.js';
import type { UserColumns } from './user-columns.js';
import type { UserTallies } from './user-tallies.js';

/**
 * The ranks [offset, offset + limit) of a user's top list over rows [lo, hi) (of one device key,
 * unless undefined), handed to `read` with the sums they index: an all-time ranking kept current,
 * all-time sums of a device, or a range's sums made for this read.
 */
export function topPage<T>(
  tallies: UserTallies,
  tables: IndexTables,
  u: UserColumns,
  [lo, hi]: [number, number],
  device: number | undefined,
  kind: Kind,
  offset: number,
  limit: number,
  read: (tally: Tally, ranks: number[], spellings: Tally) => T[],
): T[] {
  const ids = tables.idsOf(kind);
  if (lo === 0 && hi === u.n) {
    if (device === undefined) {
      const all = tallies.all(u);
      return read(all[kind], tallies.ranking(u, kind).page(offset, limit), all.spellings);
    }
    const t = tallies.device(u, device);
    return read(t[kind], select(t[kind].played(), byPlays(t[kind], ids), offset, limit), t.spellings);
  }
  return tallies.withRangeSums(u, lo, hi, device, (sums) => {
    const scratch = tallies.scratch;
    try {
      foldKind(scratch, sums, tables.snapshots, kind);
      const tally = scratch[kind];
      return read(tally, select(tally.played(), byPlays(tally, ids), offset, limit), scratch.spellings);
    } finally {
      scratch[kind].reset();
      scratch.spellings.reset();
    }
  });
}

/** The ranks [offset, offset + limit) of a user's albums or artists, latest played first (all time). */
export function recentPage(
  tallies: UserTallies,
  u: UserColumns,
  device: number | undefined,
  kind: 'albums' | 'artists',
  ids: string[],
  offset: number,
  limit: number,
): RecentItem[] {
  let tally: Tally;
  let ranks: number[];
  if (device === undefined) {
    tally = tallies.all(u)[kind];
    ranks = tallies.ranking(u, kind === 'albums' ? 'recentAlbums' : 'recentArtists').page(offset, limit);
  } else {
    tally = tallies.device(u, device)[kind];
    ranks = select(tally.played(), byRecency(tally, ids), offset, limit);
  }
  return ranks.map((idx) => ({ id: ids[idx]!, lastPlayedAt: tally.last[idx]!, plays: tally.plays[idx]! }));
}

export function item(tally: Tally, idx: number, id: string): TopItem {
  return { id, plays: tally.plays[idx]!, listeningMs: tally.ms[idx]!, lastPlayedAt: tally.last[idx]! };
}
