import { sortInSteps } from './stats/sums/sort-in-steps.js';

/**
 * A copy of `items` sorted by `compare`, made in steps of about `budget` comparisons (a generator
 * that pauses between them). Items `compare` finds equal keep their order, as Array#sort keeps them.
 */
export function* sortedInSteps<T>(
  items: readonly T[],
  compare: (a: T, b: T) => number,
  budget: number,
): Generator<void, T[]> {
  const order = new Int32Array(items.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  yield* sortInSteps(order, (a, b) => compare(items[a]!, items[b]!) || a - b, budget);
  return Array.from(order, (i) => items[i]!);
}
