import { capacityFor, grown } from '../columns/columns.js';

/**
 * Numbers per snapshot in typed arrays, grown as the index's columns grow (by an eighth once
 * large). A collector's library defines hundreds of thousands of snapshots: as arrays of
 * JavaScript numbers, with an array per snapshot for its artists or genres, they cost twice the
 * bytes and a heap object each for the collector to trace.
 * `data` is replaced as it grows: read it again after anything may have added to it.
 */
class NumberColumn<T extends Int32Array | Float64Array> {
  private used = 0;

  constructor(public data: T) {}

  get length(): number {
    return this.used;
  }

  push(value: number): void {
    if (this.used === this.data.length) this.data = growing(this.data, this.used + 1);
    this.data[this.used++] = value;
  }

  /** Appends every value of `values`. */
  pushAll(values: T): void {
    if (this.used + values.length > this.data.length)
      this.data = growing(this.data, this.used + values.length);
    this.data.set(values, this.used);
    this.used += values.length;
  }

  /** Values [from, length), a view. */
  from(from: number): T {
    return this.data.subarray(from, this.used) as T;
  }
}

export class IntColumn extends NumberColumn<Int32Array> {
  constructor() {
    super(new Int32Array(64));
  }
}

export class FloatColumn extends NumberColumn<Float64Array> {
  constructor() {
    super(new Float64Array(64));
  }
}

/**
 * A short list of numbers per snapshot, all in one array: list s is values[start[s], start[s + 1]).
 * A list is made by `add`ing to the open one, then `close`.
 */
export class Lists {
  private starts = new Int32Array(65);
  private all = new Int32Array(64);
  private lists = 0;

  /** Where each list starts in `values`, and where the last one ends (count + 1 of them). */
  get start(): Int32Array {
    return this.starts;
  }

  get values(): Int32Array {
    return this.all;
  }

  /** How many lists are closed. */
  get count(): number {
    return this.lists;
  }

  /** How many values the lists hold, the open one's too. */
  get size(): number {
    return this.used;
  }

  private used = 0;

  /** Room for `lists` more lists of `values` more values in all, at once (a saved block's). */
  reserve(lists: number, values: number): void {
    if (this.lists + lists + 2 > this.starts.length)
      this.starts = growing(this.starts, this.lists + lists + 2);
    if (this.used + values > this.all.length) this.all = growing(this.all, this.used + values);
  }

  /** Adds `value` to the open list. */
  add(value: number): void {
    if (this.used === this.all.length) this.all = growing(this.all, this.used + 1);
    this.all[this.used++] = value;
  }

  /** Adds `value` to the open list unless it holds it already; whether it was added. */
  addOnce(value: number): boolean {
    for (let i = this.starts[this.lists]!; i < this.used; i += 1) if (this.all[i] === value) return false;
    this.add(value);
    return true;
  }

  /** Closes the open list: it is list `count - 1`. */
  close(): void {
    if (this.lists + 2 > this.starts.length) this.starts = growing(this.starts, this.lists + 2);
    this.starts[++this.lists] = this.used;
  }

  /**
   * Appends `counts.length` lists, list i holding the next `counts[i]` of `values` (a saved block's
   * lists, at once); the open list must be empty.
   */
  pushAll(counts: Uint32Array, values: Int32Array): void {
    if (this.starts[this.lists] !== this.used) throw new Error('lists: one is open');
    let total = 0;
    for (let i = 0; i < counts.length; i += 1) total += counts[i]!;
    if (total !== values.length) throw new Error('lists: counts and values differ');
    this.reserve(counts.length, values.length);
    this.all.set(values, this.used);
    let end = this.used;
    for (let i = 0; i < counts.length; i += 1) this.starts[++this.lists] = end += counts[i]!;
    this.used = end;
  }

  push(list: ArrayLike<number>): void {
    for (let i = 0; i < list.length; i += 1) this.add(list[i]!);
    this.close();
  }

  /** Lists [from, count): each one's length, and their values one after the other (a view). */
  from(from: number): { counts: Uint32Array; values: Int32Array } {
    const starts = this.starts.subarray(from, this.lists + 1);
    const counts = new Uint32Array(this.lists - from);
    for (let i = 0; i < counts.length; i += 1) counts[i] = starts[i + 1]! - starts[i]!;
    return { counts, values: this.all.subarray(this.starts[from], this.starts[this.lists]) };
  }

  /** Adds list `t` of `other` as the next list. */
  pushOf(other: Lists, t: number): void {
    this.push(other.all.subarray(other.starts[t], other.starts[t + 1]));
  }

  of(s: number): number[] {
    return Array.from(this.all.subarray(this.starts[s], this.starts[s + 1]));
  }

  /** Whether list `s` here is list `t` of `other`. */
  same(s: number, other: Lists, t: number): boolean {
    const from = this.starts[s]!;
    const otherFrom = other.starts[t]!;
    const length = this.starts[s + 1]! - from;
    if (other.starts[t + 1]! - otherFrom !== length) return false;
    for (let i = 0; i < length; i += 1) if (this.all[from + i] !== other.all[otherFrom + i]) return false;
    return true;
  }
}

/**
 * `from` with room for `need` elements at least (capacityFor): a collector's hundreds of thousands of
 * snapshots in arrays grown by doubling kept up to half of each spare for good.
 */
function growing<T extends Int32Array | Float64Array>(from: T, need: number): T {
  return grown(from, capacityFor(need, from.length));
}
