/**
 * Records found by id through an open-addressing table of their places in a list: a typed array
 * of a few bytes a slot instead of a Map, whose table costs several times as much for a
 * collector's hundreds of thousands of tracks. Where two records have one id, the later one is
 * found, as a Map built from the same list would. A record that can tell whether an id is its own
 * without making its id (a track over columns: `hasId`) is asked that way at each lookup.
 */
export class IdTable<T extends Keyed> {
  private constructor(
    private readonly records: readonly T[],
    /** Places in `records`, -1 for an empty slot; a power of two long, at most two thirds full. */
    private readonly slots: Int32Array,
  ) {}

  static of<T extends Keyed>(records: readonly T[]): IdTable<T> {
    let size = 8;
    while (size * 2 < records.length * 3) size *= 2;
    const slots = new Int32Array(size).fill(-1);
    const mask = size - 1;
    for (let place = 0; place < records.length; place++) {
      const id = records[place]!.id;
      let slot = hash(id) & mask;
      while (slots[slot] !== -1 && !matches(records[slots[slot]!]!, id)) slot = (slot + 1) & mask;
      slots[slot] = place;
    }
    return new IdTable(records, slots);
  }

  /** The same table over `records`, which hold the same ids in the same places (an edited track). */
  over(records: readonly T[]): IdTable<T> {
    return new IdTable(records, this.slots);
  }

  get(id: string): T | undefined {
    const mask = this.slots.length - 1;
    for (let slot = hash(id) & mask; ; slot = (slot + 1) & mask) {
      const place = this.slots[slot]!;
      if (place === -1) return undefined;
      const record = this.records[place]!;
      if (matches(record, id)) return record;
    }
  }
}

interface Keyed {
  readonly id: string;
  hasId?(id: string): boolean;
}

/** Whether `record` has id `id`, asked without making its id where the record can. */
export function matches(record: Keyed, id: string): boolean {
  return record.hasId ? record.hasId(id) : record.id === id;
}

/** A string hash that spreads ids over the slots (a multiply by 31 per unit, mixed at the end). */
function hash(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x45d9f3b);
  return h ^ (h >>> 16);
}
