import { describe, expect, it } from 'vitest';
import { startedWith } from '../../server/v8-flags.js';

describe('the V8 options Node was started with', () => {
  it('reads the last value of an option, spelt with dashes or underscores', () => {
    expect(startedWith([], 'interrupt-budget')).toBeNull();
    expect(startedWith(['--max-old-space-size=1024', '--interrupt-budget=1000'], 'interrupt-budget')).toBe(
      1000,
    );
    expect(startedWith(['--interrupt_budget=2000'], 'interrupt-budget')).toBe(2000);
    expect(
      startedWith(['--heap-growing-percent=30', '--heap_growing_percent=40'], 'heap-growing-percent'),
    ).toBe(40);
  });

  it('does not take another option that begins the same', () => {
    expect(startedWith(['--interrupt-budget-factor=3'], 'interrupt-budget')).toBeNull();
  });
});
