/** The typed arrays the index keeps its columns in. */
export type Column = Int32Array | Float64Array | Uint8Array | Uint16Array;

/** Capacity for `needed` elements: doubling from `current` (at least 16), so appends cost O(1) on average. */
export function capacityFor(needed: number, current: number): number {
  let cap = Math.max(current, 16);
  while (cap < needed) cap *= 2;
  return cap;
}

/** A copy of `array`, of the same type, with room for `cap` elements (the new ones zero). */
export function grown<T extends Column>(array: T, cap: number): T {
  const next = new (array.constructor as new (length: number) => T)(cap);
  next.set(array);
  return next;
}
