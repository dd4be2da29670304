import { describe, expect, it } from 'vitest';
import { ListenKeys } from '../../../../server/services/history/listen-keys.js';

describe('ListenKeys', () => {
  it('holds (user, track, second) keys through growth', () => {
    const keys = new ListenKeys(4);
    for (let i = 0; i < 10_000; i += 1) expect(keys.add('u', `t${i % 100}`, i * 1000 + 500)).toBe(true);
    expect(keys.size).toBe(10_000);
    expect(keys.add('u', 't5', 5_000)).toBe(false); // same second as 5500
    expect(keys.has('u', 't5', 5_999)).toBe(true);
    expect(keys.has('u', 't6', 5_000)).toBe(false);
    expect(keys.has('v', 't5', 5_000)).toBe(false);
  });
});
