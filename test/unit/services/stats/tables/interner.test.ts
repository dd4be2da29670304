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
});
