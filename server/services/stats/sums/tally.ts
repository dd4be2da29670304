import { capacityFor, grown } from '../columns/columns.js';

/**
 * Per-item sums for one kind (tracks, albums, artists or genres), in dense arrays indexed by the
 * interned id. Used both for all-time sums kept current on every add, and as scratch for a range.
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

  /**
   * `withMs` false: no listening time is kept (`ms` stays empty), for sums per snapshot, whose
   * time is their plays × the snapshot's duration.
   */
  constructor(private readonly withMs = true) {}

  private grow(idx: number): void {
    const cap = capacityFor(idx + 1, this.plays.length);
    this.plays = grown(this.plays, cap);
    this.skips = grown(this.skips, cap);
    if (this.withMs) this.ms = grown(this.ms, cap);
    this.last = grown(this.last, cap);
    this.touched = grown(this.touched, cap);
  }

  /** Room for items [0, count), so a scan can index the arrays without checking. */
  ensure(count: number): void {
    if (count > this.plays.length) this.grow(count - 1);
  }

  bump(idx: number, play: boolean, durationMs: number, at: number): void {
    if (idx >= this.plays.length) this.grow(idx);
    const plays = this.plays[idx]!;
    if (plays === 0 && this.skips[idx] === 0) this.touched[this.touchedCount++] = idx;
    if (play) {
      if (plays === 0 || at > this.last[idx]!) this.last[idx] = at;
      this.plays[idx] = plays + 1;
      if (this.withMs) this.ms[idx] = this.ms[idx]! + durationMs;
    } else {
      this.skips[idx] = this.skips[idx]! + 1;
    }
  }

  /** Adds the sums of several logs at once: `last` is their latest play (ignored without plays). */
  add(idx: number, plays: number, skips: number, ms: number, last: number): void {
    if (idx >= this.plays.length) this.grow(idx);
    const before = this.plays[idx]!;
    if (before === 0 && this.skips[idx] === 0) this.touched[this.touchedCount++] = idx;
    if (plays > 0) {
      if (before === 0 || last > this.last[idx]!) this.last[idx] = last;
      this.plays[idx] = before + plays;
      this.ms[idx] = this.ms[idx]! + ms;
    }
    this.skips[idx] = this.skips[idx]! + skips;
  }

  reset(): void {
    const { touched, touchedCount, plays, skips, ms } = this;
    if (touchedCount * 4 > plays.length) {
      // Most items touched (a range holding most of a user's logs): zeroing whole arrays is faster.
      plays.fill(0);
      skips.fill(0);
      ms.fill(0);
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
    for (let i = 0; i < touchedCount; i += 1) if (plays[touched[i]!]! > 0) out.push(touched[i]!);
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

export function newTallies(): Tallies {
  return {
    tracks: new Tally(),
    albums: new Tally(),
    artists: new Tally(),
    genres: new Tally(),
    spellings: new Tally(),
    plays: 0,
    ms: 0,
  };
}
