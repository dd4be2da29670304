import type { Tally } from './tally.js';

/** Up to this many ranked items are kept by insertion; beyond it a full sort is cheaper. */
const SELECT_LIMIT = 256;

export type Comparator = (a: number, b: number) => number;

/**
 * A comparator whose first key is `primary` descending (plays, or the latest play): `select` then
 * finds the k-th best key with a native sort of plain numbers and sorts with the comparator only
 * the items at or above it, instead of every played item.
 */
export type KeyedComparator = Comparator & { readonly primary: ArrayLike<number> };

/**
 * The played items of `tally` at ranks [offset, offset + limit) under `compare` (a total order).
 * Read straight from the tally: a list of candidates made first would be one more array the size of
 * the library per ranged read.
 */
export function select(
  tally: Tally,
  compare: Comparator | KeyedComparator,
  offset: number,
  limit: number,
): number[] {
  const k = offset + limit;
  const { touched, touchedCount, plays } = tally;
  if (limit <= 0 || offset >= touchedCount) return [];
  if (k > SELECT_LIMIT || k * 8 > touchedCount) {
    const candidates = 'primary' in compare ? atOrAbove(tally, compare.primary, k) : tally.played();
    candidates.sort(compare);
    return candidates.slice(offset, k);
  }
  // Keep the best k in a sorted buffer: most candidates lose to the current k-th and cost one compare.
  const best: number[] = [];
  const sparse = tally.slot !== undefined;
  for (let i = 0; i < touchedCount; i += 1) {
    const c = touched[i]!;
    // A sparse tally's slot i holds touched[i]'s sums.
    if (plays[sparse ? i : c] === 0) continue;
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

/**
 * The played items whose `primary` key is at least the k-th largest of them: every item of the first
 * k ranks, and the few tied with the k-th. The k-th largest key is found by selection over a typed
 * array of the keys, without a comparator call or a sort of every item: a ranged read over a
 * collector's library has far more played tracks than the few ranks it keeps.
 * A keyed comparator is made for a dense tally only, so `plays` is indexed by item.
 */
function atOrAbove(tally: Tally, primary: ArrayLike<number>, k: number): number[] {
  const { touched, touchedCount, plays } = tally;
  const keys = new Float64Array(touchedCount);
  let count = 0;
  for (let i = 0; i < touchedCount; i += 1) {
    const c = touched[i]!;
    if (plays[c]! > 0) keys[count++] = primary[c]!;
  }
  if (k >= count) return tally.played();
  const threshold = kthLargest(keys.subarray(0, count), k);
  const out: number[] = [];
  for (let i = 0; i < touchedCount; i += 1) {
    const c = touched[i]!;
    if (plays[c]! > 0 && primary[c]! >= threshold) out.push(c);
  }
  return out;
}

/** The k-th largest of `keys` (1 ≤ k ≤ length), which it reorders: Hoare's selection. */
export function kthLargest(keys: Float64Array, k: number): number {
  // Its place in ascending order.
  const target = keys.length - k;
  let lo = 0;
  let hi = keys.length - 1;
  while (lo < hi) {
    const a = keys[lo]!;
    const b = keys[(lo + hi) >>> 1]!;
    const c = keys[hi]!;
    // The median of three: ranges already in order, or of one key repeated, split in the middle.
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (keys[i]! < pivot) i += 1;
      while (keys[j]! > pivot) j -= 1;
      if (i <= j) {
        const t = keys[i]!;
        keys[i] = keys[j]!;
        keys[j] = t;
        i += 1;
        j -= 1;
      }
    }
    // [lo, j] holds keys ≤ pivot, [i, hi] keys ≥ pivot, and any between them equal it.
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return keys[target]!;
  }
  return keys[target]!;
}

/** Code-unit order, the same on every machine (unlike localeCompare), so ties rank the same everywhere. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The order of every top list: plays desc, latest play desc, id asc. Keyed for a dense tally only:
 * a sparse one's arrays are not indexed by item (tally.ts).
 */
export function byPlays(tally: Tally, ids: string[]): Comparator | KeyedComparator {
  const { plays, last, slot } = tally;
  if (slot) {
    return (a: number, b: number) => {
      const i = slot[a]! - 1;
      const j = slot[b]! - 1;
      return plays[j]! - plays[i]! || last[j]! - last[i]! || compareStrings(ids[a]!, ids[b]!);
    };
  }
  const compare = (a: number, b: number) =>
    plays[b]! - plays[a]! || last[b]! - last[a]! || compareStrings(ids[a]!, ids[b]!);
  return Object.assign(compare, { primary: plays });
}

/** The order of every recent list: latest play desc, id asc (keyed as byPlays is). */
export function byRecency(tally: Tally, ids: string[]): Comparator | KeyedComparator {
  const { last, slot } = tally;
  if (slot) {
    return (a: number, b: number) =>
      last[slot[b]! - 1]! - last[slot[a]! - 1]! || compareStrings(ids[a]!, ids[b]!);
  }
  const compare = (a: number, b: number) => last[b]! - last[a]! || compareStrings(ids[a]!, ids[b]!);
  return Object.assign(compare, { primary: last });
}
