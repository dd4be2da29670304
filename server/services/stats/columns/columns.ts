/** The typed arrays the index keeps its columns in. */
export type Column = Int32Array | Float64Array | Uint8Array | Uint16Array | Uint32Array;

/** Past this many elements a column grows by an eighth, not by half. */
const LARGE = 1 << 16;

/**
 * Rows of a user's columns worked through per turn of the event loop by work done ahead in slices
 * (a device's sums, a growth of the columns): a slice short enough that requests waiting behind it
 * are not held up noticeably.
 */
export const ROWS_PER_TURN = 200_000;

/**
 * Capacity for `needed` elements: growing from `current` (at least 16) by half while small, so
 * appends cost O(1) on average, and by an eighth once large: a heavy listener's columns would
 * otherwise hold up to half their size spare after one more play, and each growth copies them anyway.
 * When more is needed than one step gives (room reserved for many elements at once, as an import
 * does), exactly that: a bulk add then makes one copy, not one every eighth.
 */
export function capacityFor(needed: number, current: number): number {
  const cap = Math.max(current, 16);
  if (cap >= needed) return cap;
  return Math.max(needed, Math.ceil(cap < LARGE ? cap * 1.5 : cap * 1.125));
}

/** A new column of the same type as `array`, `length` elements long, all zero. */
export function emptyLike<T extends Column>(array: T, length: number): T {
  return new (array.constructor as new (length: number) => T)(length);
}

/** A copy of `array`, of the same type, with room for `cap` elements (the new ones zero). */
export function grown<T extends Column>(array: T, cap: number): T {
  const next = emptyLike(array, cap);
  next.set(array);
  return next;
}

/** A column of small indexes: a byte, 16 or 32 bits a row, as wide as its largest value needs. */
export type IndexColumn = Uint8Array | Uint16Array | Uint32Array;

/** `column`, or a wider copy of it when `max` does not fit its type. */
export function widened(column: IndexColumn, max: number): IndexColumn {
  // The constructor copies a typed array as one block; `from` would iterate it element by element.
  if (max > 0xffff && !(column instanceof Uint32Array)) return new Uint32Array(column);
  if (max > 0xff && column instanceof Uint8Array) return new Uint16Array(column);
  return column;
}
