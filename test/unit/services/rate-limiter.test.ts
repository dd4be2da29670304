import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/clock.js';
import { FailureWindow } from '../../../server/services/rate-limiter.js';

describe('FailureWindow', () => {
  it('blocks at max failures until the oldest leaves the window', () => {
    const clock = new ManualClock(0);
    const window = new FailureWindow(clock, 1000, 3);
    window.record('a');
    clock.advance(100);
    window.record('a');
    expect(window.retryAfterMs('a')).toBe(0);
    window.record('a');
    expect(window.retryAfterMs('a')).toBe(900);
    expect(window.retryAfterMs('b')).toBe(0);
    clock.advance(900);
    expect(window.retryAfterMs('a')).toBe(0);
  });

  it('forgets keys whose failures aged out', () => {
    const clock = new ManualClock(0);
    const window = new FailureWindow(clock, 1000, 3);
    for (let i = 0; i < 20; i++) window.record('k');
    expect(window.record('k')).toBe(3);
    clock.advance(1000);
    expect(window.record('k')).toBe(1);
  });
});

describe('FailureWindow.reserve', () => {
  it('counts an attempt before its outcome is known, and withdraws it on success', () => {
    const clock = new ManualClock(0);
    const window = new FailureWindow(clock, 1000, 3);
    window.record('a');
    const pending = [window.reserve('a'), window.reserve('a')];
    expect(window.retryAfterMs('a')).toBe(1000);
    pending[1]!();
    expect(window.retryAfterMs('a')).toBe(0);
    // Withdrawing twice changes nothing more.
    pending[1]!();
    expect(window.record('a')).toBe(3);
    clock.advance(500);
    pending[0]!();
    expect(window.retryAfterMs('a')).toBe(0);
    expect(window.record('a')).toBe(3);
  });
});
