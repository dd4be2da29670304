import { describe, expect, it } from 'vitest';
import { capacityFor } from '../../../../../server/services/stats/columns/columns.js';
import { StatsIndex } from '../../../../../server/services/stats/stats-index.js';
import {
  GROW_AHEAD_FROM,
  SPARE_ROWS,
  UserColumns,
} from '../../../../../server/services/stats/columns/user-columns.js';
import type { PlayLogEntry } from '../../../../../server/domain/play.js';
import { playLog, statsIndexOf } from '../../../../factories/plays.js';

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

  it('merges a tail added newest first or oldest first, equal times in the order they came', () => {
    const snaps = (u: UserColumns) => Array.from(u.snap.subarray(0, u.n));
    const newestFirst = columnsAt([10, 20, 30, 40, 15, 7, 5], 1, 0);
    newestFirst.ensureSorted();
    expect(times(newestFirst)).toEqual([5, 7, 10, 15, 20, 30, 40]);
    const ties = columnsAt([10, 20, 30, 40, 15, 5, 5], 1, 0);
    ties.ensureSorted();
    expect(snaps(ties)).toEqual([56, 57, 101, 155, 202, 303, 404]);
    const oldestFirst = columnsAt([10, 20, 30, 40, 5, 5, 15], 1, 0);
    oldestFirst.ensureSorted();
    expect(snaps(oldestFirst)).toEqual([55, 56, 101, 157, 202, 303, 404]);
  });
});

const T0 = Date.UTC(2024, 0, 10, 12, 0, 0);
const MIN = 60_000;
/** A heavy listener: enough rows for their columns to grow ahead of need. */
const ROWS = GROW_AHEAD_FROM + 1000;
const ROWS_PER_TURN = 10_000;
const u1 = { userId: 'u1' };

/** `count` logs of u1 a minute apart from `start`, over 50 tracks and two devices. */
function logs(count: number, start: number): PlayLogEntry[] {
  return Array.from({ length: count }, (_, i) =>
    playLog({
      trackId: `t${(start + i) % 50}`,
      device: i % 3 ? 'Phone' : 'Laptop',
      type: i % 7 ? 'play' : 'skip',
      at: T0 + (start + i) * MIN,
    }),
  );
}

/** Turns of the event loop given by hand: the index's slices run only when the test says. */
function handTurns() {
  const waiting: Array<() => void> = [];
  return {
    nextTurn: () => new Promise<void>((resolve) => waiting.push(resolve)),
    get waiting() {
      return waiting.length;
    },
    /** Lets the oldest waiting slice run, and what it starts. */
    async turn() {
      waiting.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** Capacity after a load: the rows and the spare rows. */
const SETTLED = ROWS + SPARE_ROWS;
/** Capacity after one growth from there. */
const GROWN = capacityFor(SETTLED + 1, SETTLED);

/**
 * A heavy listener's index of ROWS logs, as a start leaves it (settled), its slices turned by hand;
 * `add` adds logs to it and to `added`, every log it holds.
 */
async function settledIndex(farInsertBudget?: number) {
  const added = logs(ROWS, 0);
  const turns = handTurns();
  const index = statsIndexOf(added, {
    rowsPerTurn: ROWS_PER_TURN,
    nextTurn: turns.nextTurn,
    farInsertBudget,
  });
  index.settle();
  while (turns.waiting > 0) await turns.turn();
  const add = (entries: PlayLogEntry[]) => {
    added.push(...entries);
    for (const e of entries) index.add(e);
  };
  return { index, turns, added, add };
}

const capacity = (index: StatsIndex) => index.rowsOf('u1')!.columns.at.length;

/** Every answer that reads the rows is the same as from an index that added `added` plainly. */
function expectSameAnswers(index: StatsIndex, added: PlayLogEntry[]) {
  const reference = statsIndexOf(added);
  expect(index.size).toBe(added.length);
  expect(index.recentPlays(u1, 0, added.length)).toEqual(reference.recentPlays(u1, 0, added.length));
  const lastWeek = { ...u1, from: T0 + (ROWS - 7 * 24 * 60) * MIN };
  expect(index.topTracks(lastWeek, 0, 10)).toEqual(reference.topTracks(lastWeek, 0, 10));
  const laptop = { ...u1, device: 'Laptop', to: T0 + 1000 * MIN };
  expect(index.listeningTime(laptop)).toEqual(reference.listeningTime(laptop));
}

describe('StatsIndex growing a heavy listener’s columns ahead of need', () => {
  it('leaves spare rows after a load, and starts growing at the first log after it', async () => {
    const { index, turns, add } = await settledIndex();
    expect(capacity(index)).toBe(SETTLED);
    expect(turns.waiting).toBe(0);
    add([playLog({ at: T0 + ROWS * MIN })]);
    expect(turns.waiting).toBe(1);
    expect(capacity(index)).toBe(SETTLED);
  });

  it('copies a slice a turn, copies again the rows a log moved, and answers as before', async () => {
    const { index, turns, added, add } = await settledIndex();
    add(logs(SPARE_ROWS / 2, ROWS));

    let slices = 0;
    while (turns.waiting > 0) {
      expect(capacity(index)).toBe(SETTLED);
      await turns.turn();
      slices += 1;
      // Far back: it moves every row, including the 20,000 already copied.
      if (slices === 3) add([playLog({ trackId: 't7', device: 'Phone', at: T0 - 5 * MIN })]);
    }
    // 10,000 rows a turn: 30,000 copied before the far log moved them, then all 67,049 from the start.
    expect(slices).toBe(3 + 7);
    expect(capacity(index)).toBe(GROWN);
    expectSameAnswers(index, added);
  });

  it('finishes the copy at once when the free rows run out first', async () => {
    const { index, turns, added, add } = await settledIndex();
    const more = logs(SPARE_ROWS + 1, ROWS);
    add(more.slice(0, SPARE_ROWS / 2));
    await turns.turn();
    await turns.turn();
    add(more.slice(SPARE_ROWS / 2));
    expect(capacity(index)).toBe(GROWN);

    while (turns.waiting > 0) await turns.turn();
    expect(capacity(index)).toBe(GROWN);
    expectSameAnswers(index, added);
  });

  it('copies again the rows a merge of the unsorted tail moved, and answers as before', async () => {
    // No log far back moved into place: they all wait in the tail.
    const { index, turns, added, add } = await settledIndex(0);
    add(logs(SPARE_ROWS / 2, ROWS));
    await turns.turn();
    await turns.turn();
    // Logs far back wait in a tail that the next read merges in, in place, moving every row.
    add(Array.from({ length: 20 }, (_, i) => playLog({ trackId: 't3', at: T0 - (i + 1) * MIN })));
    expect(index.listeningTime({ ...u1, to: T0 })).toEqual({ totalMs: 20_000, plays: 20 });
    let slices = 0;
    while (turns.waiting > 0) {
      await turns.turn();
      slices += 1;
    }
    // 20,000 rows copied before the merge; all 67,068 again from row 0, 10,000 a turn.
    expect(slices).toBe(7);
    expect(capacity(index)).toBe(GROWN);
    expectSameAnswers(index, added);
  });

  it('drops a growth whose columns were replaced, and starts again at the next log', async () => {
    const { index, turns, added, add } = await settledIndex();
    add(logs(SPARE_ROWS / 2, ROWS));
    await turns.turn();
    await turns.turn();
    // A 256th device name: the device column is widened to 16 bits, a new column.
    add(
      Array.from({ length: 256 }, (_, i) =>
        playLog({ device: `Speaker ${i}`, at: T0 + (ROWS + 600 + i) * MIN }),
      ),
    );
    while (turns.waiting > 0) await turns.turn();
    expect(capacity(index)).toBe(SETTLED);

    add([playLog({ at: T0 + (ROWS + 1000) * MIN })]);
    expect(turns.waiting).toBe(1);
    while (turns.waiting > 0) await turns.turn();
    expect(capacity(index)).toBe(GROWN);
    expect(index.rowsOf('u1')!.columns.device).toBeInstanceOf(Uint16Array);
    expectSameAnswers(index, added);
  });

  it('loads a saved index with the spare rows, without a copy or a growth', () => {
    const added = logs(ROWS, 0);
    const saved = statsIndexOf(added).save();
    const turns = handTurns();
    const loaded = new StatsIndex({ rowsPerTurn: ROWS_PER_TURN, nextTurn: turns.nextTurn });
    expect(loaded.load(saved)).toBe(true);
    expect(capacity(loaded)).toBe(SETTLED);
    expect(turns.waiting).toBe(0);
    expectSameAnswers(loaded, added);
  });
});
