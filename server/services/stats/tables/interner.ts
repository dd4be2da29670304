import { textHash } from '../../../store/text-hash.js';

/**
 * Strings to small integers and back, so the columns hold numbers only.
 *
 * A string is found through an open-addressing table of its number (textHash, linear probing): a
 * typed array of four bytes a slot, where a Map keeps an entry of several words beside its own hash
 * table, for each of the hundreds of thousands of track ids and names of a collector's plays.
 *
 * textHash is not seeded, and some strings an account sends (device names) are interned: strings
 * made to share a hash would have every look-up walk all of them. A probe longer than any that
 * chance makes turns the interner into a Map for good (V8 seeds its strings' hashes).
 */
/** A probe this long is not chance at two thirds full: the strings were made to collide. */
const LONGEST_PROBE = 1024;

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
  /** The look-up once a probe ran too long; the slots are then let go. */
  private map: Map<string, number> | undefined;

  intern(value: string): number {
    if (this.indexed < this.values.length) this.indexAll();
    const slot = this.slotOf(value);
    const found = slot < 0 ? this.map!.get(value) : this.slots[slot]!;
    if (found !== undefined && found !== -1) return found;
    const id = this.values.length;
    this.values.push(value);
    this.indexed += 1;
    if (slot < 0) this.map!.set(value, id);
    else this.put(slot, id);
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
    const slot = this.slotOf(value);
    if (slot < 0) return this.map!.get(value);
    const found = this.slots[slot]!;
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
    if (!this.map) this.makeRoom(this.held + (this.values.length - this.indexed));
    for (let i = this.indexed; i < to; i += 1) {
      const value = this.values[i]!;
      const slot = this.slotOf(value);
      const found = slot < 0 ? this.map!.get(value) : this.slots[slot]!;
      if (found !== undefined && found !== -1) this.twice = true;
      else if (slot < 0) this.map!.set(value, i);
      else this.put(slot, i);
    }
    this.indexed = to;
  }

  /**
   * The slot holding `value`'s number, else the empty one where it would go; -1 once the look-up
   * is a Map (made here when the probe runs too long).
   */
  private slotOf(value: string): number {
    if (this.map) return -1;
    const { slots } = this;
    const mask = slots.length - 1;
    let slot = textHash(value) & mask;
    let probes = 0;
    for (let id = slots[slot]!; id !== -1 && this.values[id] !== value; id = slots[slot]!) {
      slot = (slot + 1) & mask;
      if (++probes > LONGEST_PROBE) return this.toMap();
    }
    return slot;
  }

  private toMap(): -1 {
    const map = new Map<string, number>();
    for (const id of this.slots) if (id !== -1) map.set(this.values[id]!, id);
    this.map = map;
    this.slots = new Int32Array(0);
    return -1;
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
