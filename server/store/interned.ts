/**
 * One copy of each value that repeats across a library's tracks (an album id, a genre list, a cover),
 * found by a number: a column holds the number, four bytes, where a record held its own copy.
 * Number 0 stands for "none" (an absent or null field).
 *
 * The table from a value's key to its number is needed only while values are added: it is let go
 * once a library is read or replaced whole, and made again from the values at the next edit.
 */
export class Interned<T> {
  private readonly values: Array<T | undefined> = [undefined];
  private numbers: Map<string, number> | undefined = new Map();
  /** The number last given: an album's tracks come one after another and mostly share their values. */
  private last = 0;

  constructor(
    private readonly keyOf: (value: T) => string,
    /** The copy kept of a value first seen (e.g. frozen, its parts pooled). */
    private readonly copy: (value: T) => T,
    /** Whether a value is the same as a kept copy, without making its key. */
    private readonly same: (value: T, kept: T) => boolean = (value, kept) => value === kept,
  ) {}

  /** The number of `value`, added if new; 0 for undefined. */
  numberOf(value: T | undefined): number {
    if (value === undefined) return 0;
    if (this.last !== 0 && this.same(value, this.values[this.last]!)) return this.last;
    const key = this.keyOf(value);
    const numbers = (this.numbers ??= this.table());
    let number = numbers.get(key);
    if (number === undefined) {
      number = this.values.length;
      this.values.push(this.copy(value));
      numbers.set(key, number);
    }
    this.last = number;
    return number;
  }

  /** The kept copy of `value` (added if new). */
  pooled(value: T): T {
    return this.values[this.numberOf(value)]!;
  }

  at(number: number): T | undefined {
    return this.values[number];
  }

  /** Lets the key table go (see the class comment). */
  seal(): void {
    this.numbers = undefined;
  }

  private table(): Map<string, number> {
    const numbers = new Map<string, number>();
    for (let number = 1; number < this.values.length; number++)
      numbers.set(this.keyOf(this.values[number]!), number);
    return numbers;
  }
}
