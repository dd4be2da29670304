import type { Comparator } from './top-n.js';

/** Items sorted by the native sort, a run each, before the runs are merged (at most). */
const RUN = 1024;

/**
 * Sorts `items` by `compare` (a total order) in steps: a generator that pauses after about `budget`
 * comparisons, so a caller can give other work a turn between steps. A bottom-up merge sort of
 * sorted runs: with a total order the result is the one a single sort gives.
 */
export function* sortInSteps<T extends Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(
  items: T,
  compare: Comparator,
  budget: number,
): Generator<void, void> {
  const n = items.length;
  // A run is sorted whole: runs whose sort fits the budget (a costly comparison, a small budget).
  let runLength = RUN;
  while (runLength > 16 && runLength * Math.log2(runLength) > budget) runLength /= 2;
  let spent = 0;
  for (let lo = 0; lo < n; lo += runLength) {
    const run = items.subarray(lo, Math.min(n, lo + runLength));
    run.sort(compare);
    spent += run.length * Math.log2(run.length + 1);
    if (spent >= budget) {
      spent = 0;
      yield;
    }
  }
  let from: T = items;
  let to = new (items.constructor as new (length: number) => T)(n);
  for (let width = runLength; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let a = lo;
      let b = mid;
      for (let out = lo; out < hi; out += 1) {
        if (b >= hi || (a < mid && compare(from[a]!, from[b]!) <= 0)) to[out] = from[a++]!;
        else to[out] = from[b++]!;
        if (++spent >= budget) {
          spent = 0;
          yield;
        }
      }
    }
    [from, to] = [to, from];
  }
  if (from !== items) items.set(from);
}
