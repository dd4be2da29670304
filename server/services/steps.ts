import { performance } from 'node:perf_hooks';
import { nextTurn } from './next-turn.js';

/** How long work made in steps runs before it lets requests run. */
export const STEP_MS = 4;

/** Work made in steps: it yields wherever it may be paused, and returns what it made. */
export type Steps<T> = Generator<void, T>;

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
    let step = steps.next();
    while (!step.done && now() < until) step = steps.next();
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
