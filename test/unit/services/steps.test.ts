import { describe, expect, it } from 'vitest';
import {
  finish,
  inBackground,
  inPieces,
  ITEMS_PER_LOOK,
  STEP_MS,
  timeIsUp,
  WarmUps,
} from '../../../server/services/steps.js';

/** Steps that each take a millisecond of busy work, counting those that ran. */
function* counted(steps: number, ran: { count: number }) {
  for (let i = 0; i < steps; i++) {
    const until = performance.now() + 1;
    while (performance.now() < until);
    ran.count += 1;
    yield;
  }
  return 'made';
}

describe('steps', () => {
  it('finishes at once when asked', () => {
    const ran = { count: 0 };
    expect(finish(counted(5, ran))).toBe('made');
    expect(ran.count).toBe(5);
  });

  it('in the background lets other work run between slices of a few milliseconds', async () => {
    const ran = { count: 0 };
    let between = 0;
    const made = inBackground(counted(8 * STEP_MS, ran), () => true);
    const timer = setInterval(() => (between += 1), 0);
    expect(await made).toBe('made');
    clearInterval(timer);
    expect(ran.count).toBe(8 * STEP_MS);
    expect(between).toBeGreaterThan(1);
  });

  it('cuts a long step where its loop finds the time is up in the background, and never when finished at once', async () => {
    // One step of 10,000 items that looks at the time every ITEMS_PER_LOOK of them.
    function* oneLongStep(seen: number[]) {
      for (let i = 0; i < 10_000; i++) {
        if (i > 0 && i % ITEMS_PER_LOOK === 0 && timeIsUp()) yield;
        seen.push(i);
      }
      yield;
      return 'made';
    }
    const atOnce: number[] = [];
    const steps = oneLongStep(atOnce);
    expect(steps.next().done).toBe(false);
    expect(atOnce).toHaveLength(10_000);
    expect(finish(steps)).toBe('made');

    const seen: number[] = [];
    let turns = 0;
    let clock = 0;
    const made = inBackground(
      oneLongStep(seen),
      () => true,
      () => {
        turns += 1;
        return Promise.resolve();
      },
      // Each look at the clock finds a millisecond gone.
      () => (clock += 1),
    );
    expect(await made).toBe('made');
    expect(seen).toHaveLength(10_000);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(10_000 / (STEP_MS * ITEMS_PER_LOOK)));
    // Outside a run in the background the time is never up.
    expect(timeIsUp()).toBe(false);
  });

  it('stops, running no more steps, once the work is no longer wanted', async () => {
    const ran = { count: 0 };
    let wanted = true;
    const made = inBackground(counted(100 * STEP_MS, ran), () => wanted);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    wanted = false;
    const stoppedAt = ran.count;
    expect(await made).toBeUndefined();
    expect(ran.count).toBe(stoppedAt);
    expect(ran.count).toBeLessThan(100 * STEP_MS);
  });
});

describe('work in pieces', () => {
  /** The pieces run and where the steps paused, in order. */
  function trace(count: number, piece: number, perStep: number, stopAt = Infinity) {
    const events: string[] = [];
    const steps = inPieces(count, piece, perStep, (from, to) => {
      events.push(`${from}-${to}`);
      return from < stopAt;
    });
    let step = steps.next();
    for (; !step.done; step = steps.next()) events.push('pause');
    return { events, done: step.value };
  }

  it('runs every piece, pausing once a step has run its items, the last piece short', () => {
    expect(trace(10, 3, 6)).toEqual({ events: ['0-3', '3-6', 'pause', '6-9', '9-10'], done: true });
  });

  it('never pauses when a step has no bound, and ends when a piece says so', () => {
    expect(trace(10, 3, Infinity)).toEqual({ events: ['0-3', '3-6', '6-9', '9-10'], done: true });
    expect(trace(10, 3, 3, 3)).toEqual({ events: ['0-3', 'pause', '3-6'], done: false });
  });
});

describe('warm-ups', () => {
  it('runs one at a time, and one asked for meanwhile once after it, however many were asked', async () => {
    const warmUps = new WarmUps();
    const runs: string[] = [];
    let release: () => void = () => undefined;
    const first = warmUps.run(() => {
      runs.push('first');
      // The first run waits to be released; the one that follows it is done at once.
      return runs.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    });
    const later = () => {
      runs.push('later');
      return Promise.resolve();
    };
    await warmUps.run(later);
    await warmUps.run(later);
    expect(runs).toEqual(['first']);
    release();
    await first;
    // The follow-up runs the warm-up the first call gave: it reads the library of its own time.
    expect(runs).toEqual(['first', 'first']);
  });
});
