import { capacityFor, grown } from '../columns/columns.js';
import { performance } from 'node:perf_hooks';
import { SLICED_TRIES } from '../columns/slices.js';
import { inBackground } from '../../steps.js';
import { sortInSteps } from './sort-in-steps.js';
import type { Tally } from './tally.js';
import type { Comparator } from './top-n.js';

/**
 * Comparisons a step of a ranking made ahead spends before it looks at the clock: steps run until
 * the turn's budget (STEP_MS) is spent, then other work gets a turn.
 */
const COMPARISONS_PER_STEP = 20_000;

/**
 * A tally's played items kept in rank order (a summary table with a rank index, in memory): made by
 * one sort at the first read, then kept current on every log. A log only raises its item (one more
 * play, a later last play), so keeping it current is two binary searches and a short move, and an
 * all-time page is a slice.
 */
export class Ranking {
  private ranks = new Int32Array(0);
  private n = 0;
  private built = false;

  /** `order` makes the comparator afresh each time: the tally's arrays are replaced as they grow. */
  constructor(
    private readonly tally: Tally,
    private readonly order: () => Comparator,
  ) {}

  /** Items at ranks [offset, offset + limit). */
  page(offset: number, limit: number): number[] {
    if (!this.built) this.build();
    if (limit <= 0 || offset >= this.n) return [];
    return Array.from(this.ranks.subarray(offset, Math.min(this.n, offset + limit)));
  }

  /**
   * Makes the ranking ahead of its first read, its sort in steps for up to STEP_MS a turn of the
   * event loop: a heavy listener's made at once by that read would hold the loop while other
   * requests wait, and a step a turn would make a first read wait for every other turn between.
   * `version` changes whenever the tally does (a log counted between steps): the sort then starts
   * over, and after three tries it is made at once.
   */
  async prepare(
    version: () => number,
    nextTurn: () => Promise<void>,
    now: () => number = () => performance.now(),
  ): Promise<void> {
    for (let tries = 1; !this.built; tries += 1) {
      if (tries > SLICED_TRIES) return this.build();
      const seen = version();
      const items = Int32Array.from(this.tally.played());
      const order = this.order();
      const steps = (function* () {
        yield* sortInSteps(items, order, COMPARISONS_PER_STEP);
        return items;
      })();
      // The first step at once: a small ranking is made without waiting for a turn.
      const first = steps.next();
      const sorted = first.done
        ? first.value
        : await inBackground(steps, () => version() === seen && !this.built, nextTurn, now);
      if (sorted) this.keep(sorted);
    }
  }

  /** Call before the tally counts a log of `idx`; hand the result to `after`. */
  before(idx: number): number {
    if (!this.built || this.tally.playsOf(idx) === 0) return -1;
    return this.lowerBound(idx, this.n);
  }

  /** Call after the tally counted a log of `idx`, with what `before` gave. */
  after(idx: number, oldPos: number): void {
    if (!this.built || this.tally.playsOf(idx) === 0) return;
    const end = oldPos < 0 ? this.n : oldPos;
    const pos = this.lowerBound(idx, end);
    if (oldPos < 0) {
      if (this.n === this.ranks.length) this.ranks = grown(this.ranks, capacityFor(this.n + 1, this.n));
      this.ranks.copyWithin(pos + 1, pos, this.n);
      this.n += 1;
    } else if (pos < oldPos) {
      this.ranks.copyWithin(pos + 1, pos, oldPos);
    }
    this.ranks[pos] = idx;
  }

  private build(): void {
    const items = this.tally.played();
    items.sort(this.order());
    this.keep(Int32Array.from(items));
  }

  private keep(ranks: Int32Array<ArrayBuffer>): void {
    this.ranks = ranks;
    this.n = ranks.length;
    this.built = true;
  }

  /** The first of the first `end` ranks that `idx` does not come after. */
  private lowerBound(idx: number, end: number): number {
    let lo = 0;
    let hi = end;
    const { ranks } = this;
    const compare = this.order();
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(ranks[mid]!, idx) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
