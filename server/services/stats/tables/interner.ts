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

  get(value: string): number | undefined {
    return this.ids.get(value);
  }

  get count(): number {
    return this.values.length;
  }
}
