/** Strings to small integers and back, so the columns hold numbers only. */
export class Interner {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];
  /**
   * Values [0, indexed) are in `ids`. Those after came from a saved index (`addSaved`): put in
   * `ids` in steps once the load is done (`indexInSteps`), or all at once by the first look-up.
   */
  private indexed = 0;

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
   * Puts the saved values in the look-up, `perStep` a step; false if a value came twice (then
   * the first one's number is kept, as `intern` would have given).
   */
  *indexInSteps(perStep: number): Generator<void, boolean> {
    let distinct = true;
    while (this.indexed < this.values.length) {
      const to = Math.min(this.values.length, this.indexed + perStep);
      distinct = this.index(to) && distinct;
      if (this.indexed < this.values.length) yield;
    }
    return distinct;
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

  private index(to: number): boolean {
    let distinct = true;
    for (let i = this.indexed; i < to; i += 1) {
      const value = this.values[i]!;
      if (this.ids.has(value)) distinct = false;
      else this.ids.set(value, i);
    }
    this.indexed = to;
    return distinct;
  }
}
