import { describe, expect, it } from 'vitest';
import { HashedKeys, keyHash } from '../../../../server/services/history/hashed-keys.js';

/** Two keys FNV-1a gives one hash (found by trying names until two met). */
const SHARED = ['queen\u0000song 2rnw', 'queen\u0000song jpba'] as const;

describe('HashedKeys', () => {
  it('finds every place holding a key, in library order, each once', () => {
    const keys = [['a', 'b'], ['b'], [], ['c', 'a', 'a'], ['b']];
    const table = new HashedKeys(keys.length, (i) => keys[i]!);
    expect(table.candidates('a')).toEqual([0, 3]);
    expect(table.candidates('b')).toEqual([0, 1, 4]);
    expect(table.candidates('c')).toEqual([3]);
    expect(table.candidates('d')).toEqual([]);
    expect(new HashedKeys(0, () => []).candidates('a')).toEqual([]);
  });

  it('gives the places of keys sharing a hash as candidates of both', () => {
    expect(keyHash(SHARED[0])).toBe(keyHash(SHARED[1]));
    const table = new HashedKeys(3, (i) => (i === 1 ? [SHARED[0]] : i === 2 ? [SHARED[1]] : ['x']));
    expect(table.candidates(SHARED[0])).toEqual([1, 2]);
    expect(table.candidates(SHARED[1])).toEqual([1, 2]);
  });
});
