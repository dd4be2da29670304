import { performance } from 'node:perf_hooks';
import { nextTurn } from './next-turn.js';

/** How long work made in steps runs before it lets requests run. */
export const STEP_MS = 4;

/** Work made in steps: it yields wherever it may be paused, and returns what it made. */
export type Steps<T> = Generator<void, T>;

/**
 * Whether the steps running now have used their time. A step is cut by count (rows, snapshots), and
 * the same count costs many times more in the first steps, before V8 has compiled their loop, or
 * when a collection falls in it: a long loop inside a step also asks this every few hundred items
 * and yields once it says so, so a turn ends near its budget whatever a step's count costs.
 * False outside `runFor` (steps run at once by `finish`, or in a test), where the counts alone cut.
 */
export function timeIsUp(): boolean {
  return due();
}

let due: () => boolean = () => false;

/** Calls `run` with `timeIsUp` saying whether `now()` has reached `until`, and as it was after. */
export function runFor<T>(until: number, now: () => number, run: () => T): T {
  const outer = due;
  due = () => now() >= until;
  try {
    return run();
  } finally {
    due = outer;
  }
}

/** How many items a loop inside a step runs between two looks at `timeIsUp` (a power of two). */
export const ITEMS_PER_LOOK = 256;

/**
 * Runs `run` over items [0, count) a piece of `piece` at a time, pausing before a piece once
 * `perStep` items ran since the last pause or `timeIsUp` says so (never when `perStep` is Infinity:
 * steps run at once). `run` is a plain function, whose loop V8 compiles early (a generator's loop it
 * compiles late); false from it ends the pieces, and so does this (true once every piece ran).
 */
export function* inPieces(
  count: number,
  piece: number,
  perStep: number,
  run: (from: number, to: number) => boolean | void,
): Steps<boolean> {
  let sincePause = 0;
  for (let from = 0; from < count; from += piece) {
    if (perStep !== Infinity && from > 0 && (sincePause >= perStep || timeIsUp())) {
      yield;
      sincePause = 0;
    }
    const to = Math.min(count, from + piece);
    if (run(from, to) === false) return false;
    sincePause += to - from;
  }
  return true;
}

/** Runs the steps to the end at once (a request that needs the result now). */
export function finish<T>(steps: Steps<T>): T {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * Runs the steps in the background, STEP_MS at a time in the turns other background work shares
 * (`turn`, nextTurn unless told), letting the event loop answer requests between: what they made,
 * or undefined once `wanted` says it is of no more use (the library changed, or a request finished
 * it), and then nothing more of it runs.
 */
export async function inBackground<T>(
  steps: Steps<T>,
  wanted: () => boolean,
  turn: () => Promise<void> = nextTurn,
  now: () => number = () => performance.now(),
): Promise<T | undefined> {
  for (;;) {
    await turn();
    if (!wanted()) return undefined;
    const until = now() + STEP_MS;
    const step = runFor(until, now, () => {
      let step = steps.next();
      while (!step.done && now() < until) step = steps.next();
      return step;
    });
    if (step.done) return step.value;
  }
}

/**
 * One warm-up at a time: one asked for while another runs (a scan ended meanwhile) runs once after
 * it, so the newest library is warmed and no two warm-ups share the turns between requests.
 */
export class WarmUps {
  private running = false;
  private again = false;

  async run(warm: () => Promise<void>): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      await warm();
    } finally {
      this.running = false;
    }
    if (this.again) {
      this.again = false;
      await this.run(warm);
    }
  }
}
