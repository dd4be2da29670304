import type { Tally } from './tally.js';

/** Up to this many ranked items are kept by insertion; beyond it a full sort is cheaper. */
const SELECT_LIMIT = 256;

export type Comparator = (a: number, b: number) => number;

/**
 * The played items of `tally` at ranks [offset, offset + limit) under `compare` (a total order).
 * Read straight from the tally: a list of candidates made first would be one more array the size of
 * the library per ranged read.
 */
export function select(tally: Tally, compare: Comparator, offset: number, limit: number): number[] {
  const k = offset + limit;
  const { touched, touchedCount, plays } = tally;
  if (limit <= 0 || offset >= touchedCount) return [];
  if (k > SELECT_LIMIT || k * 8 > touchedCount) {
    const candidates = tally.played();
    candidates.sort(compare);
    return candidates.slice(offset, k);
  }
  // Keep the best k in a sorted buffer: most candidates lose to the current k-th and cost one compare.
  const best: number[] = [];
  for (let i = 0; i < touchedCount; i += 1) {
    const c = touched[i]!;
    if (plays[c] === 0) continue;
    if (best.length === k) {
      if (compare(c, best[k - 1]!) >= 0) continue;
      best.pop();
    }
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(best[mid]!, c) < 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, c);
  }
  return best.slice(offset, k);
}

/** Code-unit order, the same on every machine (unlike localeCompare), so ties rank the same everywhere. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The order of every top list: plays desc, latest play desc, id asc. */
export function byPlays(tally: Tally, ids: string[]): Comparator {
  const { plays, last } = tally;
  return (a, b) => plays[b]! - plays[a]! || last[b]! - last[a]! || compareStrings(ids[a]!, ids[b]!);
}

/** The order of every recent list: latest play desc, id asc. */
export function byRecency(tally: Tally, ids: string[]): Comparator {
  const { last } = tally;
  return (a, b) => last[b]! - last[a]! || compareStrings(ids[a]!, ids[b]!);
}
