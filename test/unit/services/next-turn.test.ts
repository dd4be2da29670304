import { describe, expect, it } from 'vitest';
import { idleTurn, laterTurn, nextTurn } from '../../../server/services/next-turn.js';

/** Counts the turns of the event loop (one check phase each) until stopped. */
function turnCounter(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turns() {
      return turns;
    },
    stop: () => (running = false),
  };
}

/** Work of `slices` slices, each after a turn; the turn each slice ran in. */
async function work(slices: number, counter: { readonly turns: number }): Promise<number[]> {
  const ranIn: number[] = [];
  for (let i = 0; i < slices; i++) {
    await nextTurn();
    ranIn.push(counter.turns);
  }
  return ranIn;
}

describe('turns shared by work in the background', () => {
  it('gives one slice a turn, whoever waits: a request waits for one slice, not one of each', async () => {
    const counter = turnCounter();
    // A start's plays, the library's catalog and the search indexes, each waiting for turns at once.
    const ran = await Promise.all([work(5, counter), work(5, counter), work(5, counter)]);
    counter.stop();
    const turns = ran.flat();
    expect(turns).toHaveLength(15);
    expect(new Set(turns).size).toBe(15);
  });

  it('takes the waiting in the order they asked', async () => {
    const order: string[] = [];
    await Promise.all(['a', 'b', 'c'].map((name) => nextTurn().then(() => order.push(name))));
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('gives work nothing waits for a turn only when no other work waits', async () => {
    const order: string[] = [];
    const idle = idleTurn().then(() => order.push('idle'));
    await Promise.all(['a', 'b'].map((name) => nextTurn().then(() => order.push(name))));
    await idle;
    expect(order).toEqual(['a', 'b', 'idle']);
  });

  it('gives later and idle work their turns after the waiting work, the longest waiting first', async () => {
    const order: string[] = [];
    // Asked first, given last: a library read and idle work give way to a request's work.
    const asked = [
      idleTurn().then(() => order.push('idle')),
      laterTurn().then(() => order.push('later')),
      nextTurn().then(() => order.push('a')),
      nextTurn().then(() => order.push('b')),
    ];
    await Promise.all(asked);
    expect(order).toEqual(['a', 'b', 'idle', 'later']);
  });

  it('alternates later and idle work while no request work waits: neither holds the other off', async () => {
    const ran: string[] = [];
    const loop = (name: string, turn: () => Promise<void>) =>
      (async () => {
        for (let i = 0; i < 20; i++) {
          await turn();
          ran.push(name);
        }
      })();
    await Promise.all([loop('later', laterTurn), loop('idle', idleTurn)]);
    // A library read waiting on every turn would otherwise leave the idle work none until it ends.
    const firstHalf = ran.slice(0, 20);
    expect(firstHalf.filter((name) => name === 'idle').length).toBeGreaterThanOrEqual(9);
    expect(firstHalf.filter((name) => name === 'later').length).toBeGreaterThanOrEqual(9);
  });

  it('still gives later work a turn while work a request waits for never pauses', async () => {
    let running = true;
    const busy = (async () => {
      while (running) await nextTurn();
    })();
    let later = 0;
    const reading = (async () => {
      while (running) {
        await laterTurn();
        later += 1;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const whileBusy = later;
    running = false;
    await Promise.all([busy, reading]);
    // Passed over for at most a while each time: some turns, but far fewer than the busy work's.
    expect(whileBusy).toBeGreaterThanOrEqual(3);
    expect(whileBusy).toBeLessThan(50);
  });

  it('still gives work nothing waits for a turn while other work never pauses', async () => {
    let running = true;
    const busy = (async () => {
      while (running) await nextTurn();
    })();
    let done = false;
    const idle = (async () => {
      for (let i = 0; i < 3; i++) await idleTurn();
      done = true;
    })();
    // Without an end to the passing over, the idle work would wait as long as the busy loop runs.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const doneWhileBusy = done;
    running = false;
    await Promise.all([busy, idle]);
    expect(doneWhileBusy).toBe(true);
  });
});
