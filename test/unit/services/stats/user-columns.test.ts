import { describe, expect, it } from 'vitest';
import { UserColumns } from '../../../../server/services/stats/user-columns.js';

/** Columns holding logs at `times`, added in that order. */
function columnsAt(times: number[], inPlaceLimit = 4096, farInsertBudget = 16): UserColumns {
  const u = new UserColumns(0);
  for (const at of times) {
    u.reserve(u.n + 1);
    const row = u.insertRow(at, inPlaceLimit, farInsertBudget);
    u.at[row] = at;
    u.snap[row] = at * 10 + u.n; // tells apart rows with equal times, by the order they came in
  }
  return u;
}

const times = (u: UserColumns) => Array.from(u.at.subarray(0, u.n));

describe('UserColumns', () => {
  it('finds the first row at or after a time, and the first after it', () => {
    const u = columnsAt([1, 2, 2, 2, 5]);
    expect([0, 1, 2, 3, 5, 6].map((t) => u.lowerBound(t))).toEqual([0, 0, 1, 4, 4, 5]);
    expect([0, 1, 2, 3, 5, 6].map((t) => u.upperBound(t))).toEqual([0, 1, 4, 4, 5, 5]);
    expect(u.range(2, 2)).toEqual([1, 4]);
    expect(u.range(3, 4)).toEqual([4, 4]);
  });

  it('inserts a late log in place, after the logs of the same time', () => {
    const u = columnsAt([1, 3, 5, 3]);
    expect(times(u)).toEqual([1, 3, 3, 5]);
    expect(Array.from(u.snap.subarray(0, 4))).toEqual([11, 32, 34, 53]);
    expect(u.sorted).toBe(4);
  });

  it('leaves logs far back in a tail, merged in time order at the next read', () => {
    const u = columnsAt([10, 20, 30, 40, 5, 15, 5], 1, 0);
    expect(u.sorted).toBe(4);
    u.ensureSorted();
    expect(times(u)).toEqual([5, 5, 10, 15, 20, 30, 40]);
    expect(Array.from(u.snap.subarray(0, 2))).toEqual([55, 57]);
    expect(u.sorted).toBe(7);
  });
});
