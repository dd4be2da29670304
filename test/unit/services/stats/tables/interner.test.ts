import { describe, expect, it } from 'vitest';
import { Interner } from '../../../../../server/services/stats/tables/interner.js';

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
});
