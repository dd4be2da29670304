import { readFile } from 'node:fs/promises';
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { StatsIndex } from '../../../../../server/services/stats/stats-index.js';
import { makeVariedPlays } from '../../../../factories/plays.js';

/**
 * An index saved by the code before StatsIndex was split into modules (commit 8f973b4), built by
 * `build()` below. A plays.index written by an installed server must keep loading, and what this
 * code saves must stay byte for byte what that code saved.
 */
const FIXTURE = new URL('../../../../fixtures/plays-index/format-1.bin', import.meta.url);

function build(): StatsIndex {
  // Small in-place limits, so the saved index holds an unsorted tail too.
  const index = new StatsIndex({ inPlaceLimit: 3, farInsertBudget: 2 });
  makeVariedPlays(200).forEach((play, i) => {
    index.add(play);
    // A device read midway makes per-device sums, which are saved and then kept current.
    if (i === 100) index.topTracks({ userId: 'u1', device: 'PHONE' }, 0, 5);
  });
  return index;
}

/** Every read, for every user and a few filters. */
function reads(index: StatsIndex): unknown[] {
  const out: unknown[] = [];
  const from = Date.UTC(2024, 0, 1);
  for (const userId of ['u0', 'u1', 'u2']) {
    for (const filter of [
      { userId },
      { userId, device: 'phone' },
      { userId, from: from + 30 * 60_000, to: from + 120 * 60_000 },
    ]) {
      out.push(
        index.listeningTime(filter),
        index.topTracks(filter, 0, 5),
        index.topAlbums(filter, 1, 3),
        index.topArtists(filter, 0, 10),
        index.topGenres(filter, 0, 10),
        index.recentPlays(filter, 2, 4),
        index.recentAlbums(filter, 0, 3),
        index.recentArtists(filter, 0, 3),
        index.activity({ ...filter, from, to: from + 4 * 3600_000 }, 'day', 10),
      );
    }
  }
  for (let t = 0; t < 20; t += 1) out.push(index.latestSnapshotOfTrack(`t${t}`));
  for (let a = 0; a < 11; a += 1) out.push(index.snapshotName('album', `al${a}`));
  for (let a = 0; a < 9; a += 1) out.push(index.snapshotName('artist', `ar${a}`));
  return out;
}

describe('saved stats index (plays.index)', () => {
  it('loads an index saved before the split and answers every read as the index it was saved from', async () => {
    const loaded = new StatsIndex();
    expect(loaded.load(await readFile(FIXTURE))).toBe(true);
    const built = build();
    expect(loaded.size).toBe(built.size);
    expect(reads(loaded)).toEqual(reads(built));
    // Kept current after loading, the same way.
    for (const play of makeVariedPlays(230).slice(200)) {
      loaded.add(play);
      built.add(play);
    }
    expect(reads(loaded)).toEqual(reads(built));
  });

  it('keeps where each id is in the play log (past 4 GiB too), not the id, and reads it back from there', () => {
    const plays = makeVariedPlays(120);
    // Lines as a log would place them: increasing, some beyond what 32 bits address.
    const lineOf = (i: number) => (i % 2 ? 2 ** 36 + 1000 * i : 100 * i);
    const log = new Map(plays.map((play, i) => [lineOf(i), play.id]));
    const idsRead: number[] = [];
    const fromLog = {
      idAt: (line: number) => {
        idsRead.push(line);
        return log.get(line) ?? 'no such line';
      },
    };
    const inMemory = new StatsIndex();
    const fed = new StatsIndex();
    plays.forEach((play, i) => {
      inMemory.add(play);
      fed.add(play, undefined, lineOf(i));
    });
    fed.readIdsFrom(fromLog);
    expect(reads(fed)).toEqual(reads(inMemory));
    expect(idsRead.length).toBeGreaterThan(0);
    expect(idsRead.some((line) => line > 2 ** 32)).toBe(true);

    const loaded = new StatsIndex();
    expect(loaded.load(Buffer.concat(fed.takeUnsaved()))).toBe(true);
    loaded.readIdsFrom(fromLog);
    expect(reads(loaded)).toEqual(reads(inMemory));
  });

  // Format 1 was one v8-serialized object graph, rewritten whole on every save; format 3 is
  // append-only blocks of 28-byte rows (saved-index.ts), so the bytes of format 1 are no longer made.
  it('saves an index that loads and answers every read as the index it was saved from', () => {
    const built = build();
    const loaded = new StatsIndex();
    expect(loaded.load(built.save())).toBe(true);
    expect(loaded.size).toBe(built.size);
    expect(reads(loaded)).toEqual(reads(built));
  });

  it('refuses bytes that are not an index this code saved, and stays as it was', () => {
    const index = build();
    const before = reads(index);
    const saved = index.save();
    expect(index.load(Uint8Array.from([1, 2, 3]))).toBe(false);
    expect(index.load(serialize({ format: 2, index: {} }))).toBe(false);
    expect(index.load(serialize({ format: 1, index: { users: {} } }))).toBe(false);
    expect(reads(index)).toEqual(before);
    expect(new StatsIndex().load(saved)).toBe(true);
  });
});
