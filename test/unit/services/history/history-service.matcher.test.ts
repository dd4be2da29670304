import { describe, expect, it, vi } from 'vitest';
import type { Listen } from '../../../../server/domain/listen.js';
import { HistoryService } from '../../../../server/services/history/history-service.js';
import { TrackMatcher } from '../../../../server/services/history/track-matcher.js';
import { makeLibrary } from '../../../factories/library.js';
import { newTestService } from '../../../fakes/test-service.js';

/** Enough tracks that making their matcher takes many steps. */
const TRACKS = 5000;
const ARTISTS = 200;

/** A library of many tracks, and `extra` more by a new artist. */
const manyTracks = (extra: string[] = []) =>
  makeLibrary({
    artists: [
      ...Array.from({ length: ARTISTS }, (_, i) => ({ id: `ar${i}`, name: `Artist Number ${i}` })),
      { id: 'nina', name: 'Nina Simone' },
    ],
    albums: [{ id: 'al1', name: 'Pastel Blues' }],
    tracks: [
      ...Array.from({ length: TRACKS }, (_, i) => ({
        id: `t${i}`,
        name: `Song No. ${i}`,
        artistIds: [`ar${i % ARTISTS}`],
      })),
      ...extra.map((name, i) => ({ id: `x${i}`, name, artistIds: ['nina'] })),
    ],
  });

const listen = (artist: string, title: string): Listen => ({
  userId: 'u1',
  at: Date.UTC(2024, 0, 1),
  artist,
  title,
  album: null,
  recordingMbid: null,
  device: null,
  type: 'play',
  source: 'listenbrainz',
});

/** Counts the turns of the event loop that run before `done` says so. */
function countTurns(done: () => boolean): () => number {
  let turns = 0;
  const tick = () => {
    if (done()) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  return () => turns;
}

describe('the matcher of a large library', () => {
  it('is made between other turns, and a listen then matches as before', async () => {
    const { sut } = newTestService(HistoryService, { library: manyTracks() });
    const match = vi.spyOn(TrackMatcher.prototype, 'match');
    let recorded = false;
    const turnsBeforeMatch = countTurns(() => recorded || match.mock.calls.length > 0);
    const outcome = await sut.record([listen(`Artist Number ${4321 % ARTISTS}`, 'Song No. 4321')]);
    recorded = true;
    match.mockRestore();
    expect(outcome).toEqual({ matched: 1, unmatched: 0, duplicates: 0 });
    // Made at once, no other work would run before the listen is matched.
    expect(turnsBeforeMatch()).toBeGreaterThan(1);
  });

  it('is made once for listens that need it together', async () => {
    const { sut } = newTestService(HistoryService, { library: manyTracks() });
    const made = vi.spyOn(TrackMatcher, 'inSteps');
    const outcomes = await Promise.all([
      sut.record([listen('Artist Number 1', 'Song No. 1')]),
      sut.playingNow(listen('Artist Number 2', 'Song No. 2'), null),
      sut.record([listen('Artist Number 3', 'Song No. 3')]),
    ]);
    const calls = made.mock.calls.length;
    made.mockRestore();
    expect(outcomes.map((outcome) => (typeof outcome === 'boolean' ? outcome : outcome.matched))).toEqual([
      1,
      true,
      1,
    ]);
    expect(calls).toBe(1);
  });

  it('is made again for a library that changed while it was made', async () => {
    const { sut, fakes } = newTestService(HistoryService, { library: manyTracks() });
    const made = vi.spyOn(TrackMatcher, 'inSteps');
    const outcome = sut.record([listen('Nina Simone', 'Four Women')]);
    await new Promise((resolve) => setImmediate(resolve));
    await fakes.library.replace(manyTracks(['Four Women']));
    expect(await outcome).toEqual({ matched: 1, unmatched: 0, duplicates: 0 });
    const calls = made.mock.calls.length;
    made.mockRestore();
    expect(calls).toBe(2);
  });

  it('is made ahead after a scan once a listen has used one, and the next listen makes none', async () => {
    const { sut, fakes } = newTestService(HistoryService, { library: manyTracks() });
    expect(await sut.record([listen('Artist Number 1', 'Song No. 1')])).toMatchObject({ matched: 1 });
    const made = vi.spyOn(TrackMatcher, 'inSteps');
    const match = vi.spyOn(TrackMatcher.prototype, 'match');
    await fakes.library.replace(manyTracks(['Four Women']));
    sut.prepareMatcher();
    // Begun before any listen asks; the listen then shares it (or finds it made) and makes none.
    expect(made.mock.calls.length).toBe(1);
    const outcome = await sut.record([listen('Nina Simone', 'Four Women')]);
    const calls = made.mock.calls.length;
    const matched = match.mock.calls.length;
    made.mockRestore();
    match.mockRestore();
    expect(outcome).toEqual({ matched: 1, unmatched: 0, duplicates: 0 });
    expect([calls, matched]).toEqual([1, 1]);
  });

  it('is not made after a scan when no listen has needed one', async () => {
    const { sut, fakes } = newTestService(HistoryService, { library: manyTracks() });
    const made = vi.spyOn(TrackMatcher, 'inSteps');
    await fakes.library.replace(manyTracks(['Four Women']));
    sut.prepareMatcher();
    const calls = made.mock.calls.length;
    made.mockRestore();
    expect(calls).toBe(0);
  });
});
