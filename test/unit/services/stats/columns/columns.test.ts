import { describe, expect, it } from 'vitest';
import { capacityFor } from '../../../../../server/services/stats/columns/columns.js';

describe('capacityFor', () => {
  it('keeps the capacity while it is enough', () => {
    expect(capacityFor(10, 0)).toBe(16);
    expect(capacityFor(100, 100)).toBe(100);
  });

  it('grows by half while small and by an eighth once large, one step at a time', () => {
    expect(capacityFor(17, 16)).toBe(24);
    expect(capacityFor(1001, 1000)).toBe(1500);
    expect(capacityFor(100_001, 100_000)).toBe(112_500);
  });

  it('gives exactly what is needed when one step is not enough (room reserved at once)', () => {
    expect(capacityFor(1_000_000, 1000)).toBe(1_000_000);
    expect(capacityFor(200_000, 100_000)).toBe(200_000);
    // A little more than a step gives: the step's own overshoot is not added on top.
    expect(capacityFor(113_000, 100_000)).toBe(113_000);
  });
});
