import { capacityFor, grown } from '../columns/columns.js';

/**
 * A sparse tally turns dense once this share of the items it has room for is counted: past it, the
 * slots and the spare room of the sums take about what dense arrays would, and dense reads are
 * quicker.
 */
const DENSE_SHARE = 2 / 3;

/**
 * Per-item sums for one kind (tracks, albums, artists or genres, or snapshots), indexed by the
 * interned id. Used both for all-time sums kept current on every add, and as scratch for a range.
 *
 * Dense (the default): the arrays are indexed by the item itself, as long as the library's items,
 * so a scan over a range's rows adds without looking anything up. Sparse: a listener's all-time
 * sums, kept for as long as the server runs, for each listener, where a listener has played a
 * fraction of a collector's library: the arrays hold only the items played or skipped, in the
 * order first counted (slot `i` is `touched[i]`'s), and `slot` finds an item's place, four bytes an
 * item of the library against the twenty to twenty-eight of the sums themselves; it turns dense
 * once most items are counted (`fit`). Read an item's
 * sums through `playsOf`, `skipsOf`, `msOf` and `lastOf`, or a slot's through `at`, which work on
 * both.
 */
export class Tally {
  plays = new Int32Array(0);
  skips = new Int32Array(0);
  ms = new Float64Array(0);
  last = new Float64Array(0);
  /**
   * Items with at least one play or skip are `touched[0, touchedCount)`, so a reset or a ranking
   * touches only those. A typed array as long as the others (an item is noted once, so it never
   * fills up), reused from read to read, so a ranged read makes no garbage for the snapshots it
   * notes, as a plain array grown per read would.
   */
  touched = new Int32Array(0);
  touchedCount = 0;
  /** Sparse only: per item, its slot in the arrays above plus one (0: never counted). */
  slot: Int32Array | undefined;

  /**
   * `withMs` false: no listening time is kept (`ms` stays empty), for sums per snapshot, whose
   * time is their plays × the snapshot's duration. `sparse`: see the class.
   */
  constructor(
    private readonly withMs = true,
    sparse = false,
  ) {
    if (sparse) this.slot = new Int32Array(0);
  }

  private grow(idx: number): void {
    const cap = capacityFor(idx + 1, this.plays.length);
    this.plays = grown(this.plays, cap);
    this.skips = grown(this.skips, cap);
    if (this.withMs) this.ms = grown(this.ms, cap);
    this.last = grown(this.last, cap);
    this.touched = grown(this.touched, cap);
  }

  /**
   * Room for items [0, count), so a scan can index the arrays without checking (dense), or the
   * slots of that many items (sparse).
   */
  ensure(count: number): void {
    if (this.slot) {
      if (count > this.slot.length) this.slot = grown(this.slot, count);
    } else if (count > this.plays.length) {
      this.grow(count - 1);
    }
  }

  /**
   * Sparse only: room for the sums of `items` items at once, for a bulk count that knows about how
   * many it will touch; grown item by item, the arrays would be copied at every step of growth.
   * `fit` lets go of what is left spare.
   */
  reserve(items: number): void {
    if (this.slot && items > this.plays.length) this.grow(items - 1);
  }

  /** Where item `idx`'s sums are in the arrays: -1 for an item of a sparse tally never counted. */
  at(idx: number): number {
    const slot = this.slot;
    if (!slot) return idx;
    return idx < slot.length ? slot[idx]! - 1 : -1;
  }

  playsOf(idx: number): number {
    const i = this.at(idx);
    return i < 0 ? 0 : (this.plays[i] ?? 0);
  }

  skipsOf(idx: number): number {
    const i = this.at(idx);
    return i < 0 ? 0 : (this.skips[i] ?? 0);
  }

  msOf(idx: number): number {
    const i = this.at(idx);
    return i < 0 ? 0 : (this.ms[i] ?? 0);
  }

  lastOf(idx: number): number {
    const i = this.at(idx);
    return i < 0 ? 0 : (this.last[i] ?? 0);
  }

  /** The place of item `idx` in the arrays, made (and noted as touched) if it has none yet. */
  private place(idx: number): number {
    const slot = this.slot;
    if (!slot) {
      if (idx >= this.plays.length) this.grow(idx);
      if (this.plays[idx] === 0 && this.skips[idx] === 0) this.touched[this.touchedCount++] = idx;
      return idx;
    }
    if (idx >= slot.length) this.slot = grown(slot, capacityFor(idx + 1, slot.length));
    const i = this.slot![idx]! - 1;
    if (i >= 0) return i;
    const next = this.touchedCount++;
    if (next >= this.plays.length) this.grow(next);
    this.slot![idx] = next + 1;
    this.touched[next] = idx;
    return next;
  }

  /**
   * Turns a sparse tally dense when most of the items it has room for are counted (DENSE_SHARE),
   * or lets go of its spare slots: called once its items are all counted (a load's end), as the
   * share seen while they are counted one by one says little (a listener's first plays are all of
   * the snapshots defined so far).
   */
  fit(): void {
    if (!this.slot) return;
    if (this.touchedCount >= this.slot.length * DENSE_SHARE) {
      this.densify();
    } else if (this.plays.length > this.touchedCount) {
      const n = this.touchedCount;
      this.plays = this.plays.slice(0, n);
      this.skips = this.skips.slice(0, n);
      if (this.withMs) this.ms = this.ms.slice(0, n);
      this.last = this.last.slice(0, n);
      this.touched = this.touched.slice(0, n);
    }
  }

  /** Sparse to dense: each item's sums moved to its own index, the slots let go. */
  private densify(): void {
    const { plays, skips, ms, last, touched, touchedCount } = this;
    // At least as long as `touched`, which holds room for a few items even in a tiny tally.
    const items = Math.max(this.slot!.length, touched.length);
    this.plays = new Int32Array(items);
    this.skips = new Int32Array(items);
    if (this.withMs) this.ms = new Float64Array(items);
    this.last = new Float64Array(items);
    this.touched = grown(touched, items);
    for (let i = 0; i < touchedCount; i += 1) {
      const idx = touched[i]!;
      this.plays[idx] = plays[i]!;
      this.skips[idx] = skips[i]!;
      if (this.withMs) this.ms[idx] = ms[i]!;
      this.last[idx] = last[i]!;
    }
    this.slot = undefined;
  }

  bump(idx: number, play: boolean, durationMs: number, at: number): void {
    const i = this.place(idx);
    const plays = this.plays[i]!;
    if (play) {
      if (plays === 0 || at > this.last[i]!) this.last[i] = at;
      this.plays[i] = plays + 1;
      if (this.withMs) this.ms[i] = this.ms[i]! + durationMs;
    } else {
      this.skips[i] = this.skips[i]! + 1;
    }
  }

  /** Adds the sums of several logs at once: `last` is their latest play (ignored without plays). */
  add(idx: number, plays: number, skips: number, ms: number, last: number): void {
    const i = this.place(idx);
    const before = this.plays[i]!;
    if (plays > 0) {
      if (before === 0 || last > this.last[i]!) this.last[i] = last;
      this.plays[i] = before + plays;
      this.ms[i] = this.ms[i]! + ms;
    }
    this.skips[i] = this.skips[i]! + skips;
  }

  reset(): void {
    const { touched, touchedCount, plays, skips, ms, slot } = this;
    if (slot || touchedCount * 4 > plays.length) {
      // Most items touched (a range holding most of a user's logs), or sparse, where the slots in
      // use are the first ones: zeroing whole arrays is faster.
      plays.fill(0);
      skips.fill(0);
      ms.fill(0);
      if (slot) for (let i = 0; i < touchedCount; i += 1) slot[touched[i]!] = 0;
    } else {
      for (let i = 0; i < touchedCount; i += 1) {
        const idx = touched[i]!;
        plays[idx] = 0;
        skips[idx] = 0;
        if (this.withMs) ms[idx] = 0;
      }
    }
    this.touchedCount = 0;
  }

  /** The items with at least one play. */
  played(): number[] {
    const out: number[] = [];
    const { touched, touchedCount, plays } = this;
    const sparse = this.slot !== undefined;
    for (let i = 0; i < touchedCount; i += 1) if (plays[sparse ? i : touched[i]!]! > 0) out.push(touched[i]!);
    return out;
  }
}

export type Kind = 'tracks' | 'albums' | 'artists' | 'genres';

/** The sums of a set of logs, per kind and overall. */
export interface Tallies {
  tracks: Tally;
  albums: Tally;
  artists: Tally;
  genres: Tally;
  /** Plays per genre spelling (trimmed), to show a group's most frequent one. */
  spellings: Tally;
  plays: number;
  ms: number;
}

/**
 * `sparse`: tracks, albums and artists kept sparse (Tally), as a listener's all-time sums are; genres
 * and their spellings are few, and read by item.
 */
export function newTallies(sparse = false): Tallies {
  return {
    tracks: new Tally(true, sparse),
    albums: new Tally(true, sparse),
    artists: new Tally(true, sparse),
    genres: new Tally(),
    spellings: new Tally(),
    plays: 0,
    ms: 0,
  };
}

/** `Tally.fit` for each kind of `t`, a kind a step: together they are a listener's every item at once. */
export function* fitAllInSteps(t: Tallies): Generator<void, void> {
  for (const kind of ['tracks', 'albums', 'artists', 'genres', 'spellings'] as const) {
    t[kind].fit();
    yield;
  }
}
