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

  it('tells apart seconds before 1970 and far ahead, and keeps them through growth', () => {
    const keys = new ListenKeys(4);
    const times = [-5_000, -1, 0, 1_000, 4_102_444_800_000 /* 2100 */];
    for (const at of times) expect(keys.add('u', 't', at)).toBe(true);
    for (let i = 0; i < 1_000; i += 1) keys.add('w', `t${i}`, i * 1000);
    expect(keys.add('u', 't', -4_001)).toBe(false); // the same second as -5000 (floored)
    expect(keys.add('u', 't', -999)).toBe(false); // the same second as -1
    for (const at of times) expect(keys.has('u', 't', at)).toBe(true);
    expect(keys.has('u', 't', 2_000)).toBe(false);
    expect(keys.size).toBe(times.length + 1_000);
  });

  it('reserves room for many keys at once, and keeps every key through it', () => {
    const keys = new ListenKeys(4);
    for (let i = 0; i < 100; i += 1) keys.add('u', `t${i}`, i * 1000);
    keys.reserve(10_000);
    const reserved = keys.bytes;
    // At most three quarters full, 8 bytes a slot: sized once for all of them.
    expect(reserved).toBe(8 * (Math.ceil(10_100 / 0.75) + 1));
    for (let i = 0; i < 100; i += 1) expect(keys.has('u', `t${i}`, i * 1000)).toBe(true);
    for (let i = 100; i < 10_100; i += 1) expect(keys.add('u', `t${i}`, i * 1000)).toBe(true);
    expect(keys.bytes).toBe(reserved);
    // Full: a little more grows it by half, not by that little.
    keys.reserve(10);
    expect(keys.bytes).toBe(8 * Math.ceil((reserved / 8) * 1.5));
    expect(keys.add('u', 't5', 5_000)).toBe(false);
    expect(keys.size).toBe(10_100);
  });

  it('is at most three quarters full, and at least half as full', () => {
    const keys = new ListenKeys();
    for (let i = 1; i <= 50_000; i += 1) {
      keys.add('u', `t${i}`, 0);
      if (i % 1000 === 0) {
        const load = i / (keys.bytes / 8);
        expect(load).toBeLessThanOrEqual(0.75);
        expect(load).toBeGreaterThan(0.49);
      }
    }
  });
});
