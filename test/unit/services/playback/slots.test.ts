import { describe, expect, it } from 'vitest';
import { Slots, type Slot } from '../../../../server/services/playback/slots.js';

const taken = (s: Slot | string): Slot => {
  if (typeof s === 'string') throw new Error(`refused: ${s}`);
  return s;
};

describe('transcode slots', () => {
  it('gives an account at most half of them, and the rest to others', () => {
    const slots = new Slots(4);
    taken(slots.tryTake('a'));
    taken(slots.tryTake('a'));
    expect(slots.tryTake('a')).toBe('account_busy');
    taken(slots.tryTake('b'));
    taken(slots.tryTake('b'));
    expect(slots.tryTake('c')).toBe('busy');
    expect(slots.inUse).toBe(4);
  });

  it('refuses at once when nothing it needs is stopping: nobody queues behind a long encode', async () => {
    const slots = new Slots(4);
    taken(slots.tryTake('a'));
    taken(slots.tryTake('a'));
    const other = taken(slots.tryTake('b'));
    other.stopping(); // another account's encoder stopping frees nothing 'a' may take
    const started = Date.now();
    expect(await slots.take('a', 5_000)).toBe('account_busy');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("waits for the account's own stopping encoder, and takes its slot once it exits", async () => {
    const slots = new Slots(2);
    const first = taken(slots.tryTake('a'));
    first.stopping();
    const waiting = slots.take('a', 5_000);
    setTimeout(() => first.release(), 50);
    const next = await waiting;
    expect(typeof next).toBe('object');
    expect(slots.inUse).toBe(1);
    // Released twice, counted once.
    first.release();
    expect(slots.inUse).toBe(1);
  });

  it('waits for a stopping encoder when every slot is taken, but no longer than it was told', async () => {
    const slots = new Slots(2);
    taken(slots.tryTake('a'));
    taken(slots.tryTake('b')).stopping();
    const started = Date.now();
    expect(await slots.take('c', 100)).toBe('busy');
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('lets at most as many requests wait as there are slots', async () => {
    const slots = new Slots(2);
    taken(slots.tryTake('a')).stopping();
    taken(slots.tryTake('b'));
    const waiting = [slots.take('c', 200), slots.take('d', 200)];
    const started = Date.now();
    expect(await slots.take('e', 5_000)).toBe('busy');
    expect(Date.now() - started).toBeLessThan(100);
    expect(await Promise.all(waiting)).toEqual(['busy', 'busy']);
  });
});
