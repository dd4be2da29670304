/** The typed arrays the index keeps its columns in. */
export type Column = Int32Array | Float64Array | Uint8Array | Uint16Array | Uint32Array;

/**
 * Capacity for `needed` elements: growing by half from `current` (at least 16), so appends cost O(1)
 * on average and at most a third of a column is spare.
 */
export function capacityFor(needed: number, current: number): number {
  let cap = Math.max(current, 16);
  while (cap < needed) cap = Math.ceil(cap * 1.5);
  return cap;
}

/** A copy of `array`, of the same type, with room for `cap` elements (the new ones zero). */
export function grown<T extends Column>(array: T, cap: number): T {
  const next = new (array.constructor as new (length: number) => T)(cap);
  next.set(array);
  return next;
}
