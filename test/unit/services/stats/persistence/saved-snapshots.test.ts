import { describe, expect, it } from 'vitest';
import type { PlaySnapshot } from '../../../../../server/domain/play.js';
import {
  addInterned,
  decodeSnapshots,
  defineSaved,
  encodeSnapshots,
  internerCounts,
  snapshotsFit,
} from '../../../../../server/services/stats/persistence/saved-snapshots.js';
import { finish } from '../../../../../server/services/steps.js';
import { IndexTables } from '../../../../../server/services/stats/tables/index-tables.js';

/** Snapshots with what interning must get right: shared and repeated artists, blank and odd names. */
const snapshot = (i: number): PlaySnapshot => ({
  trackId: `track ${i}`,
  albumId: i % 4 === 0 ? null : `album ${i % 3}`,
  // A repeated artist counts once, with the name it first had.
  artistIds:
    i % 5 === 0 ? [`artist ${i % 7}`, `artist ${i % 7}`] : [`artist ${i % 7}`, `artist ${(i + 1) % 7}`],
  genres: [[' Rock', 'rock'], ['Jazz', '', 'Jazz'], [], ['Ünïcode 🎵']][i % 4]!,
  durationMs: i % 9 === 0 ? NaN : 1000 + i,
  trackName: i % 6 === 0 ? null : `Tráck ${i} \ud800`,
  albumName: i % 3 === 0 ? null : `Album ${i % 3} 日本`,
  artistNames: [`Artist ${i % 7}`, i % 2 ? `Artist ${(i + 1) % 7}` : ''],
});

/** Tables holding snapshots [0, count), numbered as a log numbers them. */
function tablesOf(count: number, from = 0, tables = new IndexTables()): IndexTables {
  for (let i = from; i < count; i += 1) tables.snapshots.intern(snapshot(i), i);
  return tables;
}

/** Everything a snapshot reads as: as logged, and its genre groups and spellings by their words. */
function contents(tables: IndexTables) {
  const { snapshots, genres } = tables;
  return Array.from({ length: snapshots.count }, (_, s) => ({
    ...snapshots.fields(s),
    groups: snapshots.genreKeys.of(s).map((k) => genres.keys.values[k]),
    spellings: snapshots.spellings.of(s).map((k) => genres.spellings.values[k]),
  }));
}

/**
 * Loads `bytes` into `tables` as a load does: checked, then interned entries and columns added; a
 * throw while adding is a refusal too (the load rebuilds from the log).
 */
function load(tables: IndexTables, bytes: Uint8Array): boolean {
  const saved = decodeSnapshots(bytes);
  if (!saved || !finish(snapshotsFit(saved))) return false;
  try {
    finish(addInterned(tables, saved, 3));
  } catch {
    return false;
  }
  finish(defineSaved(tables, saved));
  return true;
}

describe('the saved snapshot columns of a play index', () => {
  it('load into the same table as interning every snapshot again, names of any script included', () => {
    const built = tablesOf(60);
    const loaded = new IndexTables();
    expect(load(loaded, encodeSnapshots(built, 0, [0, 0, 0, 0, 0]))).toBe(true);
    expect(contents(loaded)).toEqual(contents(built));
    expect(loaded.names.values).toEqual(built.names.values);
    expect(loaded.artists.values).toEqual(built.artists.values);
    // Interned again from what it holds: a new snapshot finds the names it has.
    expect(loaded.names.get('Tráck 7 \ud800')).toBe(built.names.get('Tráck 7 \ud800'));
    expect(loaded.snapshots.intern(snapshot(60), 60)).toBe(60);
    expect(contents(loaded)).toEqual(contents(tablesOf(61)));
  });

  it("load a block of thousands, each snapshot's artists and genres its own across the load's pieces", () => {
    const built = tablesOf(3000);
    const loaded = new IndexTables();
    expect(load(loaded, encodeSnapshots(built, 0, [0, 0, 0, 0, 0]))).toBe(true);
    expect(contents(loaded)).toEqual(contents(built));
  });

  it('load each saved string whole, in UTF-8 of one byte a character or more, and in UTF-16', () => {
    const names = {
      ascii: (i: number) => `a track name long enough to share ${i}`,
      utf8: (i: number) => (i % 2 ? `Tráck ${i} 日本 🎵 and more words` : `plain ${i} of ascii letters`),
      utf16: (i: number) => `Tráck ${i} \ud800 lone`,
    };
    for (const name of Object.values(names)) {
      const built = new IndexTables();
      for (let i = 0; i < 40; i += 1)
        built.snapshots.intern({ ...snapshot(i), trackName: name(i), genres: ['Rock'] }, i);
      const loaded = new IndexTables();
      expect(load(loaded, encodeSnapshots(built, 0, [0, 0, 0, 0, 0]))).toBe(true);
      expect(loaded.names.values).toEqual(built.names.values);
      expect(loaded.tracks.values).toEqual(built.tracks.values);
      expect(contents(loaded)).toEqual(contents(built));
      expect(loaded.names.get(name(7))).toBe(built.names.get(name(7)));
    }
  });

  it('add block after block, each with what was interned since the one before', () => {
    const built = tablesOf(25);
    const first = encodeSnapshots(built, 0, [0, 0, 0, 0, 0]);
    const counts = internerCounts(built);
    // Names interned by the library's counting between saves come along too.
    built.artists.intern('artist counted from the library');
    tablesOf(50, 25, built);
    const second = encodeSnapshots(built, 25, counts);
    const loaded = new IndexTables();
    expect(load(loaded, first)).toBe(true);
    expect(load(loaded, second)).toBe(true);
    expect(contents(loaded)).toEqual(contents(built));
    expect(loaded.artists.values).toEqual(built.artists.values);
  });

  it('are refused when they do not follow the tables, or refer to entries nobody saved', () => {
    const built = tablesOf(30);
    const whole = encodeSnapshots(built, 0, [0, 0, 0, 0, 0]);
    const later = encodeSnapshots(built, 10, [5, 3, 7, 20, 4]);
    expect(load(new IndexTables(), later)).toBe(false);
    expect(decodeSnapshots(whole.subarray(0, whole.length - 1))).toBeUndefined();
    const saved = decodeSnapshots(whole)!;
    saved.track[3] = 1000;
    expect(finish(snapshotsFit(saved))).toBe(false);
  });

  it('are refused when a duration is no length', () => {
    const whole = encodeSnapshots(tablesOf(30), 0, [0, 0, 0, 0, 0]);
    for (const ms of [NaN, -1, Infinity]) {
      const saved = decodeSnapshots(whole)!;
      saved.duration[7] = ms;
      expect(finish(snapshotsFit(saved))).toBe(false);
    }
  });

  it('are refused as they are added when a saved string is one the tables hold already', () => {
    const tables = new IndexTables();
    tables.snapshots.intern({ ...snapshot(1), genres: ['Rock', 'Rocl'] }, 0);
    const saved = decodeSnapshots(encodeSnapshots(tables, 0, [0, 0, 0, 0, 0]))!;
    // "Rocl" damaged into "Rock": the same length, every number still in range.
    saved.strings.write('Rock', saved.strings.indexOf('Rocl', 0, 'utf16le'), 'utf16le');
    saved.text = saved.text.replace('Rocl', 'Rock');
    expect(finish(snapshotsFit(saved))).toBe(true);
    expect(() => {
      finish(addInterned(new IndexTables(), saved, 3));
    }).toThrow(/out of step/);
  });
});
