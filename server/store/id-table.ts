import { textHash } from './text-hash.js';

/**
 * Records found by id through an open-addressing table of their places in a list: a typed array
 * of a few bytes a slot instead of a Map, whose table costs several times as much for a
 * collector's hundreds of thousands of tracks. Where two records have one id, the later one is
 * found, as a Map built from the same list would. A record that can tell whether an id is its own,
 * or its id's hash, without making its id (a track over columns: `hasId`, `idHash`) is asked that
 * way: a library's hundreds of thousands of ids are never made as strings to build or use it.
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
    // Every hash first, in one pass: a probe then compares numbers beside each other, and a
    // record's id is made only where two hashes are one.
    const hashes = new Int32Array(records.length);
    for (let place = 0; place < records.length; place++) hashes[place] = hashOf(records[place]!);
    for (let place = 0; place < records.length; place++) {
      const hash = hashes[place]!;
      let slot = hash & mask;
      for (let kept = slots[slot]!; kept !== -1; kept = slots[slot]!) {
        if (hashes[kept] === hash && matches(records[kept]!, records[place]!.id)) break;
        slot = (slot + 1) & mask;
      }
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
    for (let slot = textHash(id) & mask; ; slot = (slot + 1) & mask) {
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
  /** textHash of the id, where the record has it without making the id. */
  idHash?(): number;
}

/** Whether `record` has id `id`, asked without making its id where the record can. */
export function matches(record: Keyed, id: string): boolean {
  return record.hasId ? record.hasId(id) : record.id === id;
}

const hashOf = (record: Keyed): number => (record.idHash ? record.idHash() : textHash(record.id));
