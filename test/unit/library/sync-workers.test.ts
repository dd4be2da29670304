import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SyncWorkers } from '../../../server/library/sync-workers.js';
import { watchWorkers } from '../../support/worker-threads.js';

const workers = watchWorkers();

/** Answers each message with its number doubled. */
const DOUBLER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (n) => parentPort.postMessage(n * 2));
`;

describe('file-system worker threads', () => {
  it('keep answering on the workers left after one dies, and refuse at once when none is', async () => {
    const sut = new SyncWorkers<number, number>(DOUBLER, 2);
    expect(await Promise.all([1, 2, 3, 4].map((n) => sut.run(n)))).toEqual([2, 4, 6, 8]);
    const [first, second] = startedWorkers(sut);
    await first!.terminate();
    // Every batch goes to the worker left alive; none waits for the dead one for good.
    expect(await Promise.all([5, 6, 7].map((n) => sut.run(n)))).toEqual([10, 12, 14]);
    const waiting = [8, 9, 10].map((n) => sut.run(n).catch((error: Error) => error.message));
    await second!.terminate();
    const answers = await Promise.all(waiting);
    expect(answers.filter((a) => typeof a === 'string')).not.toHaveLength(0);
    await expect(sut.run(11)).rejects.toThrow();
    await sut.close();
  });

  it('survive a worker that fails to start, and let the caller know', async () => {
    const sut = new SyncWorkers<number, number>("throw new Error('no start')", 2);
    // The workers fail while idle: no unhandled 'error' reaches the process, and a run refuses.
    await expect(sut.run(1)).rejects.toThrow();
    await expect(sut.run(2)).rejects.toThrow();
    expect(sut.alive).toBe(false);
    await sut.close();
    expect(await workers.settled()).toBe(0);
  });

  it('stop the workers already started when one cannot be made', () => {
    const before = workers.started;
    workers.onStart((_, nth) => {
      if (nth - before === 2) throw new Error('out of threads');
    });
    expect(() => new SyncWorkers<number, number>(DOUBLER, 4)).toThrow('out of threads');
    return expect(workers.settled()).resolves.toBe(0);
  });

  it('stop every worker on close, and what was waiting rejects', async () => {
    const sut = new SyncWorkers<number, number>(DOUBLER, 1);
    const runs = Promise.allSettled([1, 2, 3].map((n) => sut.run(n)));
    await sut.close();
    const settled = await runs;
    expect(settled.some((s) => s.status === 'rejected')).toBe(true);
    expect(await workers.settled()).toBe(0);
  });
});

/** The workers behind `sut`, by the order they started. */
function startedWorkers(sut: SyncWorkers<number, number>) {
  return (sut as unknown as { all: Worker[] }).all.slice();
}
