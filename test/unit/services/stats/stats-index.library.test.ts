import { describe, expect, it } from 'vitest';
import type { TrackNow } from '../../../../server/services/stats/tables/snapshots.js';
import { STEP_MS } from '../../../../server/services/steps.js';
import { playLog, statsIndexOf } from '../../../factories/plays.js';

/** Plays of many tracks, each its own snapshot, as logged: one artist for all. */
const logs = Array.from({ length: 3_000 }, (_, i) =>
  playLog({ trackId: `t${i}`, albumId: `al${i % 50}`, artistIds: ['logged'], at: Date.UTC(2024, 0, 1) + i }),
);
/** The library now credits each track to one of a few artists (a rescan split the credits). */
const creditedTo =
  (prefix: string): TrackNow =>
  (trackId) => ({
    ids: [`${prefix}${Number(trackId.slice(1)) % 7}`],
    names: ['Now'],
    albumId: `al${trackId}`,
  });

const topArtists = (index: ReturnType<typeof statsIndexOf>) => index.topArtists({ userId: 'u1' }, 0, 50);

/** A clock that moves a millisecond each time it is read. */
function tickingClock(): () => number {
  let ms = 0;
  return () => (ms += 1);
}

describe('StatsIndex counting plays for a library read after listening', () => {
  it('counts a few snapshots a turn, answering as before meanwhile, and ends as counting at once would', async () => {
    const index = statsIndexOf(logs);
    const before = topArtists(index);
    let turns = 0;
    const seenBetween: unknown[] = [];
    await index.countAsInLibraryInSteps(
      creditedTo('now'),
      () => {
        turns += 1;
        if (turns === 2) seenBetween.push(topArtists(index));
        return Promise.resolve();
      },
      tickingClock(),
    );
    const reference = statsIndexOf(logs);
    reference.countAsInLibrary(creditedTo('now'));
    expect(topArtists(index)).toEqual(reference.topArtists({ userId: 'u1' }, 0, 50));
    expect(topArtists(index)[0]?.id).toMatch(/^now/);
    // A turn runs steps for STEP_MS of the clock, a few hundred snapshots each: never all of them.
    expect(turns).toBeGreaterThanOrEqual(logs.length / (250 * STEP_MS));
    expect(seenBetween).toEqual([before]);
  });

  it('lets a count begun meanwhile (a scan that ended) stand: the older library never comes back', async () => {
    const index = statsIndexOf(logs);
    let turns = 0;
    await index.countAsInLibraryInSteps(
      creditedTo('old'),
      () => {
        turns += 1;
        if (turns === 2) index.countAsInLibrary(creditedTo('scanned'));
        return Promise.resolve();
      },
      tickingClock(),
    );
    expect(turns).toBeGreaterThan(2);
    const reference = statsIndexOf(logs);
    reference.countAsInLibrary(creditedTo('scanned'));
    expect(topArtists(index)).toEqual(reference.topArtists({ userId: 'u1' }, 0, 50));
    // A play logged now counts as the newest library says.
    index.add(playLog({ trackId: 't1', artistIds: ['logged'], at: Date.UTC(2024, 1, 1) }));
    expect(topArtists(index).map((artist) => artist.id)).toContain('scanned1');
    expect(topArtists(index).some((artist) => artist.id.startsWith('old'))).toBe(false);
  });
});
