import { describe, expect, it } from 'vitest';
import { Interner } from '../../../../../server/services/stats/tables/interner.js';
import { fullCollector } from '../../../../support/full-gc.js';

describe('Interner', () => {
  it('gives each distinct string the next small integer, and the same one again', () => {
    const names = new Interner();
    expect(['b', 'a', 'b', '', 'a'].map((s) => names.intern(s))).toEqual([0, 1, 0, 2, 1]);
    expect(names.values).toEqual(['b', 'a', '']);
    expect(names.count).toBe(3);
  });

  it('looks up without interning', () => {
    const names = new Interner();
    names.intern('Rock');
    expect(names.get('Rock')).toBe(0);
    expect(names.get('rock')).toBeUndefined();
    expect(names.count).toBe(1);
  });

  it('numbers saved values in order and finds them once indexed in steps, or at the first look-up', () => {
    const names = new Interner();
    names.intern('a');
    names.addSaved(['b', 'c', 'd']);
    expect(names.count).toBe(4);
    const steps = names.indexInSteps(2);
    expect(steps.next().done).toBe(false);
    expect(names.get('d')).toBe(3);
    expect(steps.next()).toEqual({ done: true, value: true });
    expect(names.intern('e')).toBe(4);

    const later = new Interner();
    later.addSaved(['x', 'y']);
    expect(later.intern('y')).toBe(1);
    expect(later.intern('z')).toBe(2);
  });

  it('keeps the first number of a value saved twice, and tells it', () => {
    const names = new Interner();
    names.addSaved(['x', 'y', 'x']);
    const steps = names.indexInSteps(10);
    expect(steps.next()).toEqual({ done: true, value: false });
    expect(names.get('x')).toBe(0);
  });

  it("finds each of a collector's hundred thousand track ids, interned or saved, by its number", () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => `${(i * 2654435761) >>> 0}`.padStart(16, '0'));
    const interned = new Interner();
    expect(ids.map((id) => interned.intern(id))).toEqual(ids.map((_, i) => i));
    expect(ids.every((id, i) => interned.get(id) === i && interned.intern(id) === i)).toBe(true);
    expect(interned.get('0000000000000000x')).toBeUndefined();

    const saved = new Interner();
    saved.intern(ids[5]!);
    saved.addSaved(ids);
    const steps = saved.indexInSteps(7_000);
    let result = steps.next();
    while (!result.done) result = steps.next();
    // ids[5] came before the saved ones: it keeps its number, and the saved copy is told apart.
    expect(result.value).toBe(false);
    expect(saved.get(ids[5]!)).toBe(0);
    expect(ids.every((id, i) => i === 5 || saved.get(id) === i + 1)).toBe(true);
    expect(saved.intern('new')).toBe(ids.length + 1);
  });

  it('holds its look-up in a few bytes a string, not a map entry of several words', () => {
    const gc = fullCollector();
    const ids = Array.from({ length: 150_000 }, (_, i) => `track-${i}`);
    gc();
    const before = heldBytes();
    const names = new Interner();
    for (const id of ids) names.intern(id);
    gc();
    const perValue = (heldBytes() - before) / ids.length;
    expect(names.get('track-149999')).toBe(149_999);
    // The list of values takes 8 bytes a string and its spare room; a Map beside it, several words more.
    expect(perValue).toBeLessThan(32);
  });

  it('stays quick when an account sends names made to share one hash', () => {
    // "Aa" and "BB" weigh the same in a hash that multiplies by 31 a character: every string of
    // fourteen such blocks has the same hash, and 16,384 of them would fill one run of slots.
    const colliding = Array.from({ length: 16_384 }, (_, n) =>
      Array.from({ length: 14 }, (_, bit) => ((n >> bit) & 1 ? 'Aa' : 'BB')).join(''),
    );
    const names = new Interner();
    // Each value the look-up compares with is read from `values`: counted.
    let compared = 0;
    const values = new Proxy(names.values, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) compared += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    Object.defineProperty(names, 'values', { value: values });
    for (const name of colliding) names.intern(name);
    compared = 0;
    expect(colliding.map((name) => names.get(name))).toEqual(colliding.map((_, i) => i));
    expect(names.intern('BB'.repeat(14))).toBe(0);
    expect(names.intern('another')).toBe(colliding.length);
    // A handful a look-up, not the thousands the run would cost.
    expect(compared).toBeLessThan(colliding.length * 2);
  });
});

const heldBytes = () => {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
};
