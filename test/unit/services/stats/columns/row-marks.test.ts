import { describe, expect, it } from 'vitest';
import { RowMarks } from '../../../../../server/services/stats/columns/row-marks.js';
import { SKIP, UserColumns } from '../../../../../server/services/stats/columns/user-columns.js';

/** Columns of logs a minute apart, row i of snapshot i % 5, every third a skip. */
function columns(rows: number): UserColumns {
  const u = new UserColumns(0);
  for (let i = 0; i < rows; i += 1) append(u, i % 5, i % 3 === 0);
  return u;
}

function append(u: UserColumns, s: number, skip: boolean): void {
  const at = u.n * 60_000;
  u.reserve(u.n + 1);
  const row = u.insertRow(at, 4096, 16);
  u.at[row] = at;
  u.snap[row] = s;
  u.flags[row] = skip ? SKIP : 0;
}

/** Plays and skips per snapshot of rows [0, end), counted one by one. */
function counted(u: UserColumns, end: number): { plays: number[]; skips: number[] } {
  const plays = [0, 0, 0, 0, 0];
  const skips = [0, 0, 0, 0, 0];
  for (let row = 0; row < end; row += 1) {
    const s = u.snap[row]!;
    if (u.flags[row]! & SKIP) skips[s] = skips[s]! + 1;
    else plays[s] = plays[s]! + 1;
  }
  return { plays, skips };
}

/** Every mark `u`'s rows reach, a call of extendOne each. */
function extend(marks: RowMarks, u: UserColumns): number {
  let added = 0;
  while (marks.extendOne(u, 5)) added += 1;
  return added;
}

const sumsOf = (marks: RowMarks, m: number) => ({
  plays: Array.from(marks.plays[m]!.subarray(0, 5)),
  skips: Array.from(marks.skips[m]!.subarray(0, 5)),
});

describe('RowMarks', () => {
  it('marks every so many rows with the sums of the rows before, and adds marks as rows grow', () => {
    const u = columns(35);
    const marks = new RowMarks(10);
    expect(extend(marks, u)).toBe(3);
    expect(marks.rows).toEqual([10, 20, 30]);
    marks.rows.forEach((row, m) => expect(sumsOf(marks, m)).toEqual(counted(u, row)));
    for (let i = 0; i < 4; i += 1) append(u, 4, false);
    expect(extend(marks, u)).toBe(0);
    append(u, 4, false);
    expect(extend(marks, u)).toBe(1);
    expect(marks.rows).toEqual([10, 20, 30, 40]);
    expect(sumsOf(marks, 3)).toEqual(counted(u, 40));
  });

  it('counts a log inserted before a mark, which moves on with its rows', () => {
    const u = columns(30);
    const marks = new RowMarks(10);
    extend(marks, u);
    // A late log of snapshot 7 (past the marks' arrays) at 14.5 minutes: it lands at row 15.
    u.reserve(u.n + 1);
    const row = u.insertRow(14.5 * 60_000, 4096, 16);
    u.at[row] = 14.5 * 60_000;
    u.snap[row] = 7;
    marks.inserted(row, 7, false);
    expect(row).toBe(15);
    expect(marks.rows).toEqual([10, 21, 31]);
    expect(marks.plays[0]![7] ?? 0).toBe(0);
    expect(marks.plays[1]![7]).toBe(1);
    expect(marks.plays[2]![7]).toBe(1);
  });

  it('makes the next mark after a skip of a new snapshot was inserted before the last one', () => {
    const u = columns(25);
    const marks = new RowMarks(10);
    extend(marks, u);
    // A late skip of snapshot 20 (past the marks' arrays), then rows enough for a third mark.
    u.reserve(u.n + 1);
    u.widenFor(20, 0);
    const row = u.insertRow(4.5 * 60_000, 4096, 16);
    u.at[row] = 4.5 * 60_000;
    u.snap[row] = 20;
    u.flags[row] = SKIP;
    marks.inserted(row, 20, true);
    for (let i = 0; i < 5; i += 1) append(u, 1, false);
    expect(extend(marks, u)).toBe(1);
    expect(marks.rows).toEqual([11, 21, 31]);
    expect(marks.skips[2]![20]).toBe(1);
    expect(marks.plays[2]!.length).toBe(marks.skips[2]!.length);
  });

  it('finds the mark nearest a row, or none when row 0 is nearer', () => {
    const marks = new RowMarks(10);
    extend(marks, columns(45));
    expect([0, 4, 6, 14, 16, 39, 44].map((lo) => marks.nearest(lo))).toEqual([-1, -1, 0, 0, 1, 3, 3]);
    expect(RowMarks.worthFor(19, 10)).toBe(false);
    expect(RowMarks.worthFor(20, 10)).toBe(true);
  });
});
