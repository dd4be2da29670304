import type { IndexTables } from '../tables/index-tables.js';
import type { LastPlayed, RankedGenre, RankedItem, RankedTrack } from './results.js';
import { foldKind } from '../sums/scans.js';
import type { Kind, Tally } from '../sums/tally.js';
import { byPlays, byRecency, select } from '../sums/top-n.js';
import type { ReadParts, Selection } from './selection.js';

/** Ranks [offset, offset + limit) of a list. */
export interface Page {
  offset: number;
  limit: number;
}

/** Items of each kind, as a top list shows them. */
export interface TopLists {
  tracks: RankedTrack[];
  albums: RankedItem[];
  artists: RankedItem[];
  genres: RankedGenre[];
}

/** Makes a page's items from the sums its ranks index (and the plays per genre spelling). */
export type TopReader<T> = (tally: Tally, ranks: number[], spellings: Tally) => T[];
export type TopReaders = { [K in Kind]: TopReader<TopLists[K][number]> };

/** How each kind's ranked items read, by the index's tables. */
export function topReaders(tables: IndexTables): TopReaders {
  return {
    // Written out rather than spread from `item`: a mix reads hundreds of these per listener.
    tracks: (tally, ranks) =>
      ranks.map((idx) => ({
        id: tables.tracks.values[idx]!,
        plays: tally.playsOf(idx),
        listeningMs: tally.msOf(idx),
        lastPlayedAt: tally.lastOf(idx),
        skips: tally.skipsOf(idx),
      })),
    albums: (tally, ranks) => ranks.map((idx) => item(tally, idx, tables.albums.values[idx]!)),
    artists: (tally, ranks) => ranks.map((idx) => item(tally, idx, tables.artists.values[idx]!)),
    genres: (tally, ranks, spellings) =>
      ranks.map((idx) => {
        const { plays, listeningMs, lastPlayedAt } = item(tally, idx, '');
        return { genre: tables.genres.spellingOf(idx, spellings.plays), plays, listeningMs, lastPlayedAt };
      }),
  };
}

/**
 * The ranks [offset, offset + limit) of a selection's top list, handed to `read` with the sums they
 * index: an all-time ranking kept current, all-time sums of a device, or a range's sums made for
 * this read.
 */
export function topPage<T>(
  parts: ReadParts,
  sel: Selection,
  kind: Kind,
  { offset, limit }: Page,
  read: TopReader<T>,
): T[] {
  const { tallies, tables } = parts;
  const { u, device } = sel;
  if (sel.whole) {
    if (device === undefined) {
      const all = tallies.all(u);
      return read(all[kind], tallies.ranking(u, kind).page(offset, limit), all.spellings);
    }
    const t = tallies.device(u, device);
    const ids = tables.idsOf(kind);
    return read(t[kind], select(t[kind], byPlays(t[kind], ids), offset, limit), t.spellings);
  }
  return tallies.withRangeSums(u, sel.lo, sel.hi, device, (sums) =>
    rangePage(parts, sums, kind, { offset, limit }, read),
  );
}

/**
 * The first `limit` of every kind's top list over rows [lo, hi), like four `topPage` calls but with
 * one scan of the rows: a caller wanting every kind of one range (the year in review) pays for the
 * scan once instead of four times.
 */
export function topPages(parts: ReadParts, sel: Selection, limit: number, readers: TopReaders): TopLists {
  const first = { offset: 0, limit };
  const page = <K extends Kind>(kind: K, sums?: Tally): TopLists[K] =>
    (sums
      ? rangePage(parts, sums, kind, first, readers[kind])
      : topPage(parts, sel, kind, first, readers[kind])) as TopLists[K];
  const every = (sums?: Tally): TopLists => ({
    tracks: page('tracks', sums),
    albums: page('albums', sums),
    artists: page('artists', sums),
    genres: page('genres', sums),
  });
  // The whole range reads sums kept current, with no scan to share.
  if (sel.whole) return every();
  return parts.tallies.withRangeSums(sel.u, sel.lo, sel.hi, sel.device, (sums) => every(sums));
}

/** A page of one kind from a range's sums per snapshot (folded into the kind's scratch sums). */
function rangePage<T>(
  { tallies, tables }: ReadParts,
  sums: Tally,
  kind: Kind,
  { offset, limit }: Page,
  read: TopReader<T>,
): T[] {
  const scratch = tallies.scratch;
  try {
    foldKind(scratch, sums, tables.snapshots, kind);
    const tally = scratch[kind];
    return read(tally, select(tally, byPlays(tally, tables.idsOf(kind)), offset, limit), scratch.spellings);
  } finally {
    scratch[kind].reset();
    scratch.spellings.reset();
  }
}

/** The ranks [offset, offset + limit) of a listener's albums or artists, latest played first (all time). */
export function recentPage(
  { tallies }: ReadParts,
  sel: Selection,
  kind: 'albums' | 'artists',
  ids: string[],
  { offset, limit }: Page,
): LastPlayed[] {
  const { u, device } = sel;
  let tally: Tally;
  let ranks: number[];
  if (device === undefined) {
    tally = tallies.all(u)[kind];
    ranks = tallies.ranking(u, kind === 'albums' ? 'recentAlbums' : 'recentArtists').page(offset, limit);
  } else {
    tally = tallies.device(u, device)[kind];
    ranks = select(tally, byRecency(tally, ids), offset, limit);
  }
  return ranks.map((idx) => ({ id: ids[idx]!, lastPlayedAt: tally.lastOf(idx), plays: tally.playsOf(idx) }));
}

export function item(tally: Tally, idx: number, id: string): RankedItem {
  return { id, plays: tally.playsOf(idx), listeningMs: tally.msOf(idx), lastPlayedAt: tally.lastOf(idx) };
}
