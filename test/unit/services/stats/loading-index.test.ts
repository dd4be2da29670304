import { describe, expect, it } from 'vitest';
import { LoadingIndex } from '../../../../server/services/stats/loading-index.js';
import { StatsIndex } from '../../../../server/services/stats/stats-index.js';
import { ITEMS_PER_LOOK } from '../../../../server/services/steps.js';
import { makeVariedPlays, statsIndexOf } from '../../../factories/plays.js';
import {
  ROW_EXPLICIT_AT,
  ROW_SKIP,
  type LoggedNames,
  type LoggedRows,
  type PlayLogEntry,
} from '../../../../server/domain/play.js';
import { snapshotText } from '../../../../server/store/play-log-codec.js';

const logs = makeVariedPlays(300);
const users = [...new Set(logs.map((log) => log.userId))];

/** Every user's all-time top tracks and listening time: what a loaded index must answer alike. */
function answers(index: StatsIndex) {
  return users.map((userId) => [index.topTracks({ userId }, 0, 500), index.listeningTime({ userId })]);
}

/** A saved index of the first `count` logs, as a clean stop writes it. */
const savedOf = (count: number) => statsIndexOf(logs.slice(0, count)).save();

/** `entries` as the store hands a log's lines over at start (PlayLogOptions.onRows). */
function rowsOf(entries: readonly PlayLogEntry[]) {
  const users: string[] = [];
  const devices: string[] = [];
  const texts: string[] = [];
  const snapshots: PlayLogEntry[] = [];
  const names: LoggedNames = { users, devices, snapshot: (n) => snapshots[n] };
  const numberOf = (list: string[], value: string) => {
    const n = list.indexOf(value);
    return n >= 0 ? n : list.push(value) - 1;
  };
  const rows = {
    count: entries.length,
    toCome: 0,
    at: Float64Array.from(entries, (e) => e.at),
    user: Uint32Array.from(entries, (e) => numberOf(users, e.userId)),
    snapshot: Uint32Array.from(entries, (e) => {
      const n = numberOf(texts, snapshotText(e));
      if (n === snapshots.length) snapshots.push(e);
      return n;
    }),
    device: Uint32Array.from(entries, (e) => (e.device === null ? 0 : numberOf(devices, e.device) + 1)),
    kind: Uint8Array.from(
      entries,
      (e) => (e.type === 'skip' ? ROW_SKIP : 0) | (e.explicitAt ? ROW_EXPLICIT_AT : 0),
    ),
    line: Float64Array.from(entries, (_, i) => 1000 + i * 100),
  };
  return { rows: rows as LoggedRows, names, snapshots };
}

describe('an index loading in the background', () => {
  it('keeps a copy of the rows and snapshots the store hands over meanwhile: the store reuses them', async () => {
    const index = new StatsIndex({ rowsPerTurn: 10 });
    const loading = new LoadingIndex(index, () => Promise.resolve(), 0);
    expect(loading.load([savedOf(250)], [])).toBe(true);
    const { rows, names, snapshots } = rowsOf(logs.slice(250));
    loading.addRows(rows, names);
    // The next batch fills the same rows; once the log is read, the store lets its snapshots go.
    for (const column of [rows.at, rows.user, rows.snapshot, rows.device, rows.kind]) column.fill(0);
    snapshots.length = 0;
    loading.settle();
    await loading.finish();
    expect(index.size).toBe(300);
    expect(answers(index)).toEqual(answers(statsIndexOf(logs)));
  });

  it('is ready once the rows are in, its listeners settled after or at a read, with the same answers', async () => {
    const index = new StatsIndex({ rowsPerTurn: 10 });
    const loading = new LoadingIndex(index, () => Promise.resolve(), 0);
    expect(loading.load([savedOf(300)], [])).toBe(true);
    await loading.finish();
    expect(loading.ready).toBe(true);
    // A read of one listener settles it; the rest settle after the load, and a read of the
    // household's figures waits for them.
    await index.prepareListener(users[0]!);
    await index.settleLeft();
    expect(answers(index)).toEqual(answers(statsIndexOf(logs)));
    expect(users.map((userId) => index.topArtists({ userId }, 0, 500))).toEqual(
      users.map((userId) => statsIndexOf(logs).topArtists({ userId }, 0, 500)),
    );
  });

  it('adds the saved rows a step per turn, then the logs handed over meanwhile, in order', async () => {
    let turns = 0;
    const index = new StatsIndex({ rowsPerTurn: 10 });
    const loading = new LoadingIndex(
      index,
      () => {
        turns += 1;
        // A log appended while loading waits for the saved rows.
        if (turns === 5) loading.add(logs[299]!);
        return Promise.resolve();
      },
      0,
    );
    expect(loading.load([savedOf(250)], [])).toBe(true);
    // The log's lines after the saved index.
    for (const log of logs.slice(250, 299)) loading.add(log);
    loading.settle();
    expect(loading.ready).toBe(false);
    expect(index.size).toBeLessThan(250);

    await loading.finish();
    expect(loading.ready).toBe(true);
    expect(turns).toBeGreaterThan(20);
    expect(index.size).toBe(300);
    expect(answers(index)).toEqual(answers(statsIndexOf(logs)));
  });

  it('runs as many steps a turn as fit its time, then lets the event loop go', async () => {
    const turnsWith = async (budgetMs: number) => {
      let turns = 0;
      let clock = 0;
      const loading = new LoadingIndex(
        new StatsIndex({ rowsPerTurn: 10 }),
        () => {
          turns += 1;
          return Promise.resolve();
        },
        budgetMs,
        // Each look at the clock finds a millisecond gone.
        () => (clock += 1),
      );
      expect(loading.load([savedOf(250)], [])).toBe(true);
      await loading.finish();
      expect(loading.ready).toBe(true);
      return turns;
    };
    const oneStepATurn = await turnsWith(0);
    const fourStepsATurn = await turnsWith(4);
    expect(fourStepsATurn).toBeGreaterThan(1);
    expect(fourStepsATurn).toBeLessThanOrEqual(Math.ceil(oneStepATurn / 3));
  });

  it('ends a turn once its time is up even inside a step, however many rows the step was given', async () => {
    // Rows cost more in the first steps (before V8 compiles their loop) and when a collection
    // falls in them: a step's count alone would let such a turn run long.
    const saved = statsIndexOf(makeVariedPlays(6000)).save();
    const index = new StatsIndex({ rowsPerTurn: 100_000 });
    const sizes: number[] = [];
    let clock = 0;
    const loading = new LoadingIndex(
      index,
      () => {
        sizes.push(index.size);
        return Promise.resolve();
      },
      4,
      // Each look at the clock finds a millisecond gone.
      () => (clock += 1),
    );
    expect(loading.load([saved], [])).toBe(true);
    await loading.finish();
    expect(index.size).toBe(6000);
    const addedPerTurn = sizes.slice(1).map((size, i) => size - sizes[i]!);
    expect(Math.max(...addedPerTurn)).toBeLessThanOrEqual(4 * ITEMS_PER_LOOK);
  });

  it('counts the loaded plays for the artists and albums the library gives their tracks now', async () => {
    // The library credits every track anew (a rescan split the credits): plays follow the library.
    const now = (trackId: string) => ({
      ids: [`now-${trackId}`],
      names: ['Now'],
      albumId: `album-${trackId}`,
    });
    const index = new StatsIndex({ rowsPerTurn: 10 });
    index.countAsInLibrary(now);
    const loading = new LoadingIndex(index, () => Promise.resolve());
    expect(loading.load([savedOf(250)], [])).toBe(true);
    for (const log of logs.slice(250)) loading.add(log);
    await loading.finish();
    const reference = statsIndexOf(logs);
    reference.countAsInLibrary(now);
    for (const userId of users) {
      expect(index.topArtists({ userId }, 0, 500)).toEqual(reference.topArtists({ userId }, 0, 500));
      expect(index.topAlbums({ userId }, 0, 500)).toEqual(reference.topAlbums({ userId }, 0, 500));
    }
    expect(index.topArtists({ userId: users[0]! }, 0, 1)[0]?.id).toMatch(/^now-/);
  });

  it('finishes the load at once when the store saves during it', () => {
    const index = new StatsIndex({ rowsPerTurn: 10 });
    const loading = new LoadingIndex(index, () => Promise.reject(new Error('no turn expected')));
    expect(loading.load([savedOf(200)], [])).toBe(true);
    loading.add(logs[200]!);
    loading.takeUnsaved();
    expect(loading.ready).toBe(true);
    expect(answers(index)).toEqual(answers(statsIndexOf(logs.slice(0, 201))));
  });

  it('finds saved parts whose rows do not fit only in the background, then rebuilds from the whole log', async () => {
    const saved = Uint8Array.from(savedOf(250));
    // The last row's user is one the saved tables never named.
    new DataView(saved.buffer).setUint32(saved.length - 28 + 8, 0xffff_ffff, true);
    const index = new StatsIndex({ rowsPerTurn: 10 });
    const loading = new LoadingIndex(index, () => Promise.resolve(), 0);
    expect(loading.load([saved], [])).toBe(true);
    for (const log of logs.slice(250, 298)) loading.add(log);
    loading.settle();

    expect(await loading.finish()).toBe(false);
    expect(loading.ready).toBe(false);
    expect(index.size).toBe(0);
    expect(() => loading.takeUnsaved()).toThrow(/rebuilt/);

    await loading.rebuild(async (onEntry) => {
      for (const log of logs.slice(0, 150)) onEntry(log);
      // Appended while the log is read again, after the end the rebuild reads to.
      loading.add(logs[299]!);
      await Promise.resolve();
      for (const log of logs.slice(150, 299)) onEntry(log);
    });
    expect(loading.ready).toBe(true);
    expect(index.size).toBe(300);
    expect(answers(index)).toEqual(answers(statsIndexOf(logs)));
  });

  it('refuses saved parts that are not an index, leaving the index empty for a rebuild from the log', async () => {
    const index = new StatsIndex();
    const loading = new LoadingIndex(index, () => Promise.resolve());
    expect(loading.load([new Uint8Array([1, 2, 3, 4])], [])).toBe(false);
    expect(index.size).toBe(0);
    for (const log of logs) loading.add(log);
    loading.settle();
    expect(loading.ready).toBe(true);
    await loading.finish();
    expect(answers(index)).toEqual(answers(statsIndexOf(logs)));
  });

  it('tells whoever waits once the saved parts are in, and never when they did not fit', async () => {
    const loading = new LoadingIndex(new StatsIndex({ rowsPerTurn: 10 }), () => Promise.resolve(), 0);
    expect(loading.load([savedOf(250)], [])).toBe(true);
    const told: string[] = [];
    loading.whenLoaded(() => told.push('loaded'));
    loading.settle();
    expect(told).toEqual([]);
    await loading.finish();
    expect(told).toEqual(['loaded']);
    loading.whenLoaded(() => told.push('again'));
    expect(told).toEqual(['loaded', 'again']);

    const broken = new LoadingIndex(new StatsIndex(), () => Promise.resolve());
    const unchecked = Buffer.from(savedOf(20));
    // Well framed, but a row refers to a user no block names: the check after listening fails.
    unchecked.writeUInt32LE(99, unchecked.length - 28 + 8);
    expect(broken.load([unchecked], [])).toBe(true);
    broken.whenLoaded(() => told.push('broken'));
    expect(await broken.finish()).toBe(false);
    expect(told).toEqual(['loaded', 'again']);
  });

  /** The first 40 logs saved as a log feeds them, and the same bytes with a track id saved twice. */
  function savedWithIdTwice(): { saved: Buffer; twice: Buffer; texts: string[] } {
    // Fed as a log feeds it, so the snapshots are saved as columns with their track ids' table.
    const fed = new StatsIndex();
    const texts: string[] = [];
    for (const [line, log] of logs.slice(0, 40).entries()) {
      const text = snapshotText(log);
      if (!texts.includes(text)) texts.push(text);
      fed.add(log, texts.indexOf(text), line * 100);
    }
    const saved = Buffer.concat(fed.takeUnsaved());
    // Every number still refers to an entry: only the look-ups find the track id saved twice.
    const [first, second] = [...new Set(logs.slice(0, 40).map((log) => log.trackId))] as [string, string];
    expect(first.length).toBe(second.length);
    const at = saved.indexOf(first + second);
    expect(at).toBeGreaterThan(0);
    const twice = Buffer.from(saved);
    twice.write(first + first, at);
    return { saved, twice, texts };
  }

  it('tells once the load is done that a saved string came twice, for the saved index to be dropped', async () => {
    const { saved, twice, texts } = savedWithIdTwice();
    const told: string[] = [];
    const loadOf = async (bytes: Buffer) => {
      const loading = new LoadingIndex(
        new StatsIndex(),
        () => Promise.resolve(),
        8,
        undefined,
        () => Promise.resolve(),
      );
      loading.whenDamaged(() => told.push('damaged'));
      expect(loading.load([bytes], texts)).toBe(true);
      expect(await loading.finish()).toBe(true);
      // The look-ups are made in idle turns after the load.
      for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
    };
    await loadOf(saved);
    expect(told).toEqual([]);
    await loadOf(twice);
    expect(told).toEqual(['damaged']);
  });

  it('drops a load whose track id came twice when it looks the ids up itself, for answers before the library', async () => {
    const { saved, twice, texts } = savedWithIdTwice();
    const loadOf = (bytes: Buffer) => {
      const index = new StatsIndex();
      // A saved counting (here: every snapshot as logged) has the load look the ids up in its steps.
      index.countAsSaved([]);
      const loading = new LoadingIndex(index, () => Promise.resolve(), 8);
      expect(loading.load([bytes], texts)).toBe(true);
      return loading.finish();
    };
    expect(await loadOf(saved)).toBe(true);
    // Not loaded to be told later: rebuilt from the log, as when the whole look-up finds it.
    expect(await loadOf(twice)).toBe(false);
  });
});
