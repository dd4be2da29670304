import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  devicesOf,
  heatmapOf,
  playSpanOf,
} from '../../../../../server/services/stats/reads/play-patterns.js';
import type { PlayLogEntry } from '../../../../../server/domain/play.js';
import { playLog, statsIndexOf } from '../../../../factories/plays.js';
import { propertyRuns } from '../../../../support/property-runs.js';

const entry = (at: number, device: string | null, type: 'play' | 'skip' = 'play') =>
  playLog({ at, device, type, genres: [] });
const indexOf = statsIndexOf;

/** The heatmap as a row-by-row reading of Date would make it: the reference. */
function referenceHeatmap(entries: PlayLogEntry[], device?: string): number[][] {
  const cells = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  for (const e of entries) {
    if (e.type !== 'play') continue;
    if (device !== undefined && e.device?.toLowerCase() !== device.toLowerCase()) continue;
    const date = new Date(e.at);
    cells[(date.getDay() + 6) % 7]![date.getHours()]! += 1;
  }
  return cells;
}

/**
 * An index of `entries` whose scans take 30 rows a turn, with `late[k]` logged (and added to
 * `entries`) at the k-th turn between slices; `turns()` counts the turns so far.
 */
function loggingBetweenSlices(entries: PlayLogEntry[], late: Record<number, PlayLogEntry>) {
  let turns = 0;
  const index = indexOf(entries, {
    rowsPerTurn: 30,
    nextTurn: () => {
      const log = late[++turns];
      if (log) {
        entries.push(log);
        index.add(log);
      }
      return Promise.resolve();
    },
  });
  return { index, turns: () => turns };
}

const zoneBefore = process.env.TZ;
afterEach(() => {
  process.env.TZ = zoneBefore;
});

describe('heatmapOf', () => {
  // Zones whose days are not all 24 hours: an hour's shift at 02:00 or 03:00, at midnight (São
  // Paulo in 2018), and half an hour (Lord Howe).
  for (const zone of [
    'UTC',
    'Europe/Berlin',
    'America/New_York',
    'America/Sao_Paulo',
    'Australia/Lord_Howe',
  ]) {
    it(`counts each play at its local weekday and hour, as Date says, in ${zone}`, async () => {
      process.env.TZ = zone;
      const from = Date.UTC(2017, 9, 1);
      const to = Date.UTC(2019, 3, 1);
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              at: fc.integer({ min: from, max: to }),
              device: fc.constantFrom(null, 'Phone', 'phone', 'Laptop'),
              skip: fc.boolean(),
            }),
            { maxLength: 300 },
          ),
          fc.constantFrom(undefined, 'PHONE', 'Laptop'),
          async (logs, device) => {
            const entries = logs.map((l) => entry(l.at, l.device, l.skip ? 'skip' : 'play'));
            // Slices of 50 rows: a day's counting goes on across them.
            const index = indexOf(entries, { rowsPerTurn: 50 });
            expect(await heatmapOf(index, { userId: 'u1', device })).toEqual(
              referenceHeatmap(entries, device),
            );
          },
        ),
        { numRuns: propertyRuns(40) },
      );
    });
  }

  it('counts the hours around a daylight saving change in Berlin one by one', async () => {
    process.env.TZ = 'Europe/Berlin';
    // 2024-03-31: 02:00 local does not exist; 01:30 CET and 03:30 CEST are an hour apart.
    const entries = [entry(Date.UTC(2024, 2, 31, 0, 30), null), entry(Date.UTC(2024, 2, 31, 1, 30), null)];
    const cells = await heatmapOf(indexOf(entries), { userId: 'u1' });
    expect(cells[6]![1]).toBe(1); // Sunday 01:30
    expect(cells[6]![3]).toBe(1); // Sunday 03:30
  });

  it('keeps the all-time counts current as logs arrive; a range or device is counted from the rows', async () => {
    process.env.TZ = 'Europe/Berlin';
    const t = Date.UTC(2024, 2, 30, 22); // the night Berlin's clocks go forward
    const entries = Array.from({ length: 40 }, (_, i) =>
      entry(t + i * 1_800_000, i % 2 ? 'Phone' : null, i % 5 ? 'play' : 'skip'),
    );
    const index = indexOf(entries);
    expect(index.keptCounts('u1')?.weekHours).toBeUndefined();
    expect(await heatmapOf(index, { userId: 'u1' })).toEqual(referenceHeatmap(entries));
    expect(index.keptCounts('u1')?.weekHours).toBeDefined();

    // Far back, a skip, during the missing hour's day, and later.
    const more = [
      entry(t - 3 * 86_400_000, 'Laptop'),
      entry(t + 5 * 3_600_000, null, 'skip'),
      entry(t + 2 * 3_600_000, 'Phone'),
      entry(t + 10 * 86_400_000, 'Phone'),
    ];
    for (const e of more) {
      entries.push(e);
      index.add(e);
    }
    expect(await heatmapOf(index, { userId: 'u1' })).toEqual(referenceHeatmap(entries));
    expect(await heatmapOf(index, { userId: 'u1', device: 'phone' })).toEqual(
      referenceHeatmap(entries, 'phone'),
    );
    const late = entries.filter((e) => e.at >= t + 86_400_000);
    expect(await heatmapOf(index, { userId: 'u1', from: t + 86_400_000 })).toEqual(referenceHeatmap(late));
  });

  it('starts over when a log lands between its slices and moves rows, goes on over logs added at the end, and counts them all', async () => {
    const t = Date.UTC(2024, 0, 1, 9);
    const entries = Array.from({ length: 100 }, (_, i) => entry(t + i * 3_600_000, i % 2 ? 'Phone' : null));
    // A log far back (every later row moves), then one at the end.
    const { index, turns } = loggingBetweenSlices(entries, {
      2: entry(t - 86_400_000, null),
      5: entry(t + 1e9, 'Phone'),
    });
    expect(await heatmapOf(index, { userId: 'u1' })).toEqual(referenceHeatmap(entries));
    // 100 rows by 30: the second turn moved them; then 101 rows, the third turn of which added one
    // at the end, scanned without starting over (a last slice of 11 rows, then of the new one).
    expect(turns()).toBe(2 + 3);
    expect(await devicesOf(index, { userId: 'u1' })).toEqual([
      { device: 'Phone', plays: 51 },
      { device: null, plays: 51 },
    ]);
  });
});

describe('devicesOf', () => {
  it('goes on over logs added at the end of a known device, and starts over for a device new since it began', async () => {
    const t = Date.UTC(2024, 0, 1, 9);
    const entries = Array.from({ length: 90 }, (_, i) => entry(t + i * 60_000, i % 3 ? 'Phone' : null));
    const { index, turns } = loggingBetweenSlices(entries, {
      1: entry(t + 1e9, 'Phone'),
      2: entry(t + 2e9, 'Tablet'),
    });
    expect(await devicesOf(index, { userId: 'u1' })).toEqual([
      { device: 'Phone', plays: 61 },
      { device: null, plays: 30 },
      { device: 'Tablet', plays: 1 },
    ]);
    // 90 rows by 30: a Phone log at the first turn, gone on over; a Tablet at the second, which the
    // counts made at the start have no place for: started over, 92 rows by 30 (3 turns).
    expect(turns()).toBe(2 + 3);
  });

  it('groups device names by their key, shown in their most logged spelling, skips counted only there', async () => {
    const t = Date.UTC(2024, 0, 1);
    const index = indexOf([
      entry(t, 'Phone'),
      entry(t + 1, 'phone'),
      entry(t + 2, 'phone', 'skip'),
      entry(t + 3, 'Laptop'),
      entry(t + 4, null),
      entry(t + 5, null),
      entry(t + 6, null),
    ]);
    expect(await devicesOf(index, { userId: 'u1' })).toEqual([
      { device: null, plays: 3 },
      { device: 'phone', plays: 2 },
      { device: 'Laptop', plays: 1 },
    ]);
    expect(await devicesOf(index, { userId: 'u1', from: t + 3 })).toEqual([
      { device: null, plays: 3 },
      { device: 'Laptop', plays: 1 },
    ]);
    expect(await devicesOf(index, { userId: 'nobody' })).toEqual([]);
  });

  it('keeps the all-time counts current as logs arrive, new device names and spellings included', async () => {
    const t = Date.UTC(2024, 0, 1);
    const index = indexOf([entry(t, 'Phone'), entry(t + 1, null)]);
    expect(await devicesOf(index, { userId: 'u1' })).toEqual([
      { device: 'Phone', plays: 1 },
      { device: null, plays: 1 },
    ]);
    expect(index.keptCounts('u1')?.devices).toBeDefined();
    // Another user's device first: this user's first log on it comes with a name index past its counts.
    for (const e of [
      playLog({ userId: 'u2', device: 'Car', at: t }),
      entry(t - 5, 'Car'),
      entry(t + 2, 'Car'),
      entry(t + 3, 'PHONE'),
      entry(t + 4, 'PHONE', 'skip'),
      entry(t + 5, 'PHONE'),
    ])
      index.add(e);
    expect(await devicesOf(index, { userId: 'u1' })).toEqual([
      { device: 'PHONE', plays: 3 },
      { device: 'Car', plays: 2 },
      { device: null, plays: 1 },
    ]);
    expect(await devicesOf(index, { userId: 'u1', from: t + 3 })).toEqual([{ device: 'PHONE', plays: 2 }]);
  });
});

describe('playSpanOf', () => {
  it('gives the first and last play of a range and device, skips left out', () => {
    const t = Date.UTC(2024, 0, 1);
    const index = indexOf([
      entry(t, 'Phone', 'skip'),
      entry(t + 1, 'Laptop'),
      entry(t + 2, 'Phone'),
      entry(t + 3, 'Phone'),
      entry(t + 4, 'Laptop'),
      entry(t + 5, 'Phone', 'skip'),
    ]);
    expect(playSpanOf(index, { userId: 'u1' })).toEqual({ first: t + 1, last: t + 4 });
    expect(playSpanOf(index, { userId: 'u1', device: 'phone' })).toEqual({ first: t + 2, last: t + 3 });
    expect(playSpanOf(index, { userId: 'u1', device: 'phone', from: t + 4 })).toEqual({
      first: null,
      last: null,
    });
    expect(playSpanOf(index, { userId: 'u1', device: 'tv' })).toEqual({ first: null, last: null });
  });
});
