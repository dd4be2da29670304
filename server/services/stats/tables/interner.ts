/** Strings to small integers and back, so the columns hold numbers only. */
export class Interner {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];

  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }

  /**
   * Adds `values[from, to)` in order, each as the next number (a saved table's entries): a value
   * held already is skipped, which leaves `count` short for the caller to notice.
   */
  addNew(values: readonly string[], from: number, to: number): void {
    for (let i = from; i < to; i += 1) {
      const value = values[i]!;
      if (this.ids.has(value)) continue;
      this.ids.set(value, this.values.length);
      this.values.push(value);
    }
  }

  get(value: string): number | undefined {
    return this.ids.get(value);
  }

  get count(): number {
    return this.values.length;
  }
}
