/** Strings to small integers and back, so the columns hold numbers only. */
export class Interner {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];
  /**
   * Values [0, indexed) are in `ids`. Those after came from a saved index (`addSaved`): put in
   * `ids` in steps once the load is done (`indexInSteps`), or all at once by the first look-up.
   */
  private indexed = 0;
  /** A saved value came twice (found by whichever indexing met it). */
  private twice = false;

  intern(value: string): number {
    if (this.indexed < this.values.length) this.indexAll();
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
      this.indexed += 1;
    }
    return id;
  }

  /**
   * Adds saved values as the next numbers, in order, to be found by `get` and `intern` once
   * indexed: a start needs their numbers, not yet their look-up, and hundreds of thousands of them
   * put in a Map cost a good part of it.
   */
  addSaved(values: readonly string[]): void {
    for (const value of values) this.values.push(value);
  }

  /**
   * Puts the saved values in the look-up, `perStep` a step; false if a value came twice, here or
   * in a look-up before (then the first one's number is kept, as `intern` would have given).
   */
  *indexInSteps(perStep: number): Generator<void, boolean> {
    while (this.indexed < this.values.length) {
      this.index(Math.min(this.values.length, this.indexed + perStep));
      if (this.indexed < this.values.length) yield;
    }
    return !this.twice;
  }

  get(value: string): number | undefined {
    if (this.indexed < this.values.length) this.indexAll();
    return this.ids.get(value);
  }

  get count(): number {
    return this.values.length;
  }

  private indexAll(): void {
    this.index(this.values.length);
  }

  private index(to: number): void {
    for (let i = this.indexed; i < to; i += 1) {
      const value = this.values[i]!;
      if (this.ids.has(value)) this.twice = true;
      else this.ids.set(value, i);
    }
    this.indexed = to;
  }
}
