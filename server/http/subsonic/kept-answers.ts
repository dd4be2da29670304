/**
 * Answers kept between requests within a byte budget: the least recently used go first when a new
 * one would pass it, and one larger than the whole budget is not kept at all. The budget bounds
 * what a library of any size can hold in memory, whoever asks.
 */
export class KeptAnswers<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private used = 0;

  constructor(
    readonly budgetBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  /** The bytes kept now. */
  get bytes(): number {
    return this.used;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // A Map keeps insertion order: put back at the end, the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The value kept under `key`, leaving the order of use as it is. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.sizeOf(value);
    if (bytes > this.budgetBytes) return;
    for (const [oldest, entry] of this.entries) {
      if (this.used + bytes <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
    this.entries.set(key, { value, bytes });
    this.used += bytes;
  }

  /**
   * Counts anew the value kept under `key`, which has grown, if it still fits beside everything
   * else kept: it pushes nothing out, and it keeps its place in the order of use. False, and
   * counted as before, when it does not fit or nothing is kept under `key`.
   */
  recount(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    const bytes = this.sizeOf(entry.value);
    if (this.used - entry.bytes + bytes > this.budgetBytes) return false;
    this.used += bytes - entry.bytes;
    entry.bytes = bytes;
    return true;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }
}
