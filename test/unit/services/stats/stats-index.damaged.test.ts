import { describe, expect, it } from 'vitest';
import type { PlayLogEntry } from '../../../../server/domain/play.js';
import { snapshotText } from '../../../../server/store/play-log-codec.js';
import { StatsIndex } from '../../../../server/services/stats/stats-index.js';
import { playLog } from '../../../factories/plays.js';

/**
 * A saved index whose snapshot columns were damaged in ways every number still fits: the load ends
 * with false and leaves the index empty, for the rebuild from the log, and never throws (a throw
 * left the server starting for good).
 */
const plays: PlayLogEntry[] = [
  playLog({ trackId: 't1', genres: ['Rock'], durationMs: 180_000 }),
  playLog({ trackId: 't2', genres: ['Rocl'], durationMs: 123_456.5 }),
  playLog({ trackId: 't2', genres: ['Rocl'], durationMs: 123_456.5 }),
];

/** The plays fed as a log feeds them (snapshots numbered by the log), and that log's snapshot texts. */
function fromLog(): { index: StatsIndex; texts: string[] } {
  const index = new StatsIndex();
  const texts: string[] = [];
  plays.forEach((play, line) => {
    const text = snapshotText(play);
    if (!texts.includes(text)) texts.push(text);
    index.add(play, texts.indexOf(text), line * 100);
  });
  index.settle();
  return { index, texts };
}

function answers(index: StatsIndex) {
  const f = { userId: 'u1' };
  return [index.listeningTime(f), index.topTracks(f, 0, 10), index.topGenres(f, 0, 10), index.size];
}

/** The saved bytes with `from` replaced by `to` (of the same length) once. */
function damaged(saved: Buffer, from: Buffer, to: Buffer): Buffer {
  const at = saved.indexOf(from);
  expect(at).toBeGreaterThan(0);
  const copy = Buffer.from(saved);
  to.copy(copy, at);
  return copy;
}

describe('a saved play index damaged inside its snapshot columns', () => {
  const { index: built, texts } = fromLog();
  const saved = Buffer.concat(built.takeUnsaved());
  const f64 = (ms: number) => {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(ms);
    return b;
  };

  it('loads as saved when it is whole', () => {
    const loaded = new StatsIndex();
    expect(loaded.load(saved, texts)).toBe(true);
    expect(answers(loaded)).toEqual(answers(built));
  });

  it.each([
    ['a genre changed into one saved before it', Buffer.from('RockRocl'), Buffer.from('RockRock')],
    ['a duration that is no number', f64(123_456.5), f64(NaN)],
    ['a duration below zero', f64(123_456.5), f64(-1)],
  ])('is refused, never thrown, and the index rebuilt from the log answers as the log: %s', (_, from, to) => {
    const loaded = new StatsIndex();
    expect(loaded.load(damaged(saved, from, to), texts)).toBe(false);
    expect(loaded.size).toBe(0);
    expect(loaded.topTracks({ userId: 'u1' }, 0, 10)).toEqual([]);
    // The rebuild reads the log into the same, emptied index.
    plays.forEach((play, line) => loaded.add(play, texts.indexOf(snapshotText(play)), line * 100));
    loaded.settle();
    expect(answers(loaded)).toEqual(answers(built));
  });
});
