import type { Clock } from '../clock.js';
import { tooManyRequests } from '../errors.js';

/**
 * Counts failures per key in a sliding window. Once `max` failures sit inside the window, the key is
 * blocked until the oldest of them leaves it.
 */
export class FailureWindow {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    readonly windowMs: number,
    readonly max: number,
  ) {}

  private recent(key: string): number[] {
    const now = this.clock.now();
    const kept = (this.failures.get(key) ?? []).filter((at) => now - at < this.windowMs);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  /** How many failures of the key sit in the window now. */
  count(key: string): number {
    return this.recent(key).length;
  }

  /** Milliseconds until the key may try again; 0 when it may now. */
  retryAfterMs(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.max) return 0;
    return recent[recent.length - this.max]! + this.windowMs - this.clock.now();
  }

  /** Records a failure and returns how many sit in the window now. */
  record(key: string): number {
    return this.add(key, this.clock.now());
  }

  /**
   * Records a failure for an attempt whose outcome is not known yet, so that attempts checked while
   * others are still in flight (e.g. hashing a password) count against the limit too. Returns a
   * function that withdraws it: call it when the attempt succeeds.
   */
  reserve(key: string): () => void {
    const at = this.clock.now();
    this.add(key, at);
    let withdrawn = false;
    return () => {
      if (withdrawn) return;
      withdrawn = true;
      const recent = this.failures.get(key);
      const index = recent?.lastIndexOf(at) ?? -1;
      if (index >= 0) recent!.splice(index, 1);
      if (recent?.length === 0) this.failures.delete(key);
    };
  }

  private add(key: string, at: number): number {
    if (this.failures.size > 10_000) this.sweep();
    const recent = this.recent(key);
    recent.push(at);
    this.failures.set(key, recent);
    // Bounded memory: a key never holds more entries than it needs to decide.
    if (recent.length > this.max) recent.splice(0, recent.length - this.max);
    return recent.length;
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  /** Drops keys whose failures have all aged out, so memory does not grow with every address seen. */
  sweep(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}

/**
 * Starts one guessing attempt (a password, an invite code) limited by each of `entries`, a window and
 * the key it counts under. Throws 429 `too_many_attempts` with `detail` while any of them blocks, with
 * Retry-After from the longest wait. Otherwise the attempt is counted as a failure in every window
 * before its guess is checked, so that guesses sent at once cannot all pass this check while the
 * others are still being checked (e.g. hashing a password). Returns a function that withdraws those
 * failures: call it when the guess turns out right.
 */
export function reserveAttempt(
  entries: ReadonlyArray<readonly [FailureWindow, string]>,
  detail: string,
): () => void {
  const wait = Math.max(0, ...entries.map(([window, key]) => window.retryAfterMs(key)));
  if (wait > 0) throw tooManyRequests('too_many_attempts', detail, wait / 1000);
  const withdraws = entries.map(([window, key]) => window.reserve(key));
  return () => {
    for (const withdraw of withdraws) withdraw();
  };
}
