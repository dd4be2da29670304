/**
 * The player's queue, without DOM or audio: the tracks in order, which one is current, shuffle and
 * repeat. Shuffle reorders the tracks after the current one (so "previous" still goes back through
 * what was heard) and turning it off restores the order they were added in.
 */
export type RepeatMode = 'off' | 'all' | 'one';

export interface QueueState<T> {
  tracks: readonly T[];
  /** -1 when nothing is current (an empty queue). */
  index: number;
  shuffle: boolean;
  repeat: RepeatMode;
}

export class Queue<T extends { id: string }> {
  private items: T[] = [];
  /** The order before shuffling, to go back to. */
  private unshuffled: T[] | null = null;
  private position = -1;
  repeat: RepeatMode = 'off';

  constructor(private readonly random: () => number = Math.random) {}

  get state(): QueueState<T> {
    return {
      tracks: this.items,
      index: this.position,
      shuffle: this.unshuffled !== null,
      repeat: this.repeat,
    };
  }

  get current(): T | null {
    return this.items[this.position] ?? null;
  }

  get length(): number {
    return this.items.length;
  }

  /** Replaces the queue and starts at `start`; `shuffle` mixes the whole list first. */
  replace(tracks: readonly T[], start = 0, shuffle = false): void {
    this.items = [...tracks];
    this.position = tracks.length === 0 ? -1 : Math.min(Math.max(start, 0), tracks.length - 1);
    this.unshuffled = null;
    if (shuffle) {
      this.position = tracks.length === 0 ? -1 : 0;
      this.unshuffled = [...this.items];
      this.mix(0);
    }
  }

  /** Right after the current track. */
  playNext(tracks: readonly T[]): void {
    this.items.splice(this.position + 1, 0, ...tracks);
    this.unshuffled?.push(...tracks);
    if (this.position < 0 && this.items.length > 0) this.position = 0;
  }

  /** At the end. */
  add(tracks: readonly T[]): void {
    this.items.push(...tracks);
    this.unshuffled?.push(...tracks);
    if (this.position < 0 && this.items.length > 0) this.position = 0;
  }

  /** The next track to play when one ends (`ended`) or when the listener asks for the next. */
  next(ended = false): T | null {
    if (this.items.length === 0) return null;
    if (ended && this.repeat === 'one') return this.current;
    if (this.position + 1 < this.items.length) this.position += 1;
    // Next at the end wraps around when anything repeats, as in most players.
    else if (this.repeat !== 'off') this.position = 0;
    else return null;
    return this.current;
  }

  previous(): T | null {
    if (this.items.length === 0) return null;
    if (this.position > 0) this.position -= 1;
    else if (this.repeat !== 'off') this.position = this.items.length - 1;
    return this.current;
  }

  jump(index: number): T | null {
    if (index < 0 || index >= this.items.length) return null;
    this.position = index;
    return this.current;
  }

  /** Moves the track at `from` to `to`; the current track stays current. */
  move(from: number, to: number): void {
    if (from < 0 || from >= this.items.length || to < 0 || to >= this.items.length || from === to) return;
    const current = this.current;
    const [item] = this.items.splice(from, 1);
    this.items.splice(to, 0, item!);
    this.position = current ? this.items.indexOf(current) : -1;
  }

  /** Removes the track at `index`; removing the current one makes the next current (or the last). */
  remove(index: number): void {
    if (index < 0 || index >= this.items.length) return;
    const [removed] = this.items.splice(index, 1);
    if (this.unshuffled) this.unshuffled.splice(this.unshuffled.indexOf(removed!), 1);
    if (index < this.position) this.position -= 1;
    if (this.position >= this.items.length) this.position = this.items.length - 1;
  }

  clear(): void {
    this.replace([]);
  }

  setShuffle(on: boolean): void {
    if (on === (this.unshuffled !== null)) return;
    const current = this.current;
    if (on) {
      this.unshuffled = [...this.items];
      this.mix(this.position + 1);
    } else {
      this.items = this.unshuffled ?? this.items;
      this.unshuffled = null;
      this.position = current ? this.items.indexOf(current) : -1;
    }
  }

  /** Fisher–Yates over the tracks from `from` on. */
  private mix(from: number): void {
    for (let i = this.items.length - 1; i > from; i--) {
      const j = from + Math.floor(this.random() * (i - from + 1));
      [this.items[i], this.items[j]] = [this.items[j]!, this.items[i]!];
    }
  }
}
