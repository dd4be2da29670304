import { textHash } from '../../../store/text-hash.js';

/**
 * Strings to small integers and back, so the columns hold numbers only.
 *
 * A string is found through an open-addressing table of its number (textHash, linear probing): a
 * typed array of four bytes a slot, where a Map keeps an entry of several words beside its own hash
 * table, for each of the hundreds of thousands of track ids and names of a collector's plays.
 */
export class Interner {
  /** Numbers of values, -1 for an empty slot; a power of two long, at most two thirds full. */
  private slots = new Int32Array(16).fill(-1);
  /** How many values the slots hold (a value saved twice is in them once). */
  private held = 0;
  readonly values: string[] = [];
  /**
   * Values [0, indexed) are in the slots. Those after came from a saved index (`addSaved`): put in
   * the slots in steps once the load is done (`indexInSteps`), or all at once by the first look-up.
   */
  private indexed = 0;
  /** A saved value came twice (found by whichever indexing met it). */
  private twice = false;

  intern(value: string): number {
    if (this.indexed < this.values.length) this.indexAll();
    const slot = this.slotOf(value);
    const found = this.slots[slot]!;
    if (found !== -1) return found;
    const id = this.values.length;
    this.values.push(value);
    this.indexed += 1;
    this.put(slot, id);
    return id;
  }

  /**
   * Adds saved values as the next numbers, in order, to be found by `get` and `intern` once
   * indexed: a start needs their numbers, not yet their look-up, and hundreds of thousands of them
   * put in the table cost a good part of it.
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
    const found = this.slots[this.slotOf(value)]!;
    return found === -1 ? undefined : found;
  }

  get count(): number {
    return this.values.length;
  }

  private indexAll(): void {
    this.index(this.values.length);
  }

  private index(to: number): void {
    // Room for every value still to come at once: one copy of the table, not one per doubling.
    this.makeRoom(this.held + (this.values.length - this.indexed));
    for (let i = this.indexed; i < to; i += 1) {
      const slot = this.slotOf(this.values[i]!);
      if (this.slots[slot] !== -1) this.twice = true;
      else this.put(slot, i);
    }
    this.indexed = to;
  }

  /** The slot holding `value`'s number, else the empty one where it would go. */
  private slotOf(value: string): number {
    const { slots } = this;
    const mask = slots.length - 1;
    let slot = textHash(value) & mask;
    for (let id = slots[slot]!; id !== -1 && this.values[id] !== value; id = slots[slot]!)
      slot = (slot + 1) & mask;
    return slot;
  }

  private put(slot: number, id: number): void {
    this.slots[slot] = id;
    this.held += 1;
    this.makeRoom(this.held);
  }

  /** A larger table once `count` values would fill more than two thirds of it. */
  private makeRoom(count: number): void {
    let size = this.slots.length;
    while (count * 3 > size * 2) size *= 2;
    if (size === this.slots.length) return;
    const old = this.slots;
    this.slots = new Int32Array(size).fill(-1);
    const mask = size - 1;
    for (const id of old) {
      if (id === -1) continue;
      let slot = textHash(this.values[id]!) & mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & mask;
      this.slots[slot] = id;
    }
  }
}
