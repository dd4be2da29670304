import { describe, expect, it } from 'vitest';
import { PlayQueueService } from '../../../server/services/play-queue-service.js';
import { alice, bob, twoTrackLibrary as library } from '../../factories/listeners.js';
import { newTestService } from '../../fakes/test-service.js';
import { problemOf } from '../../support/problem-of.js';

describe('PlayQueueService', () => {
  it('saves one queue per user, checks its tracks and current; an empty one clears it', async () => {
    const { sut, clock } = newTestService(PlayQueueService, { library });
    await sut.save(alice, { trackIds: ['t1', 't2'], current: 't2', positionMs: 1500, client: 'Kitchen' });
    expect(sut.get(alice)).toEqual({
      trackIds: ['t1', 't2'],
      current: 't2',
      positionMs: 1500,
      changedAt: clock.now(),
      changedBy: 'Kitchen',
    });
    expect(sut.get(bob)).toBeNull();
    expect(
      await problemOf(() => sut.save(bob, { trackIds: ['t9'], current: null, positionMs: 0, client: null })),
    ).toBe('404 track_not_found');
    expect(
      await problemOf(() => sut.save(bob, { trackIds: ['t1'], current: 't2', positionMs: 0, client: null })),
    ).toBe('400 invalid_parameter');
    expect(sut.get(bob)).toBeNull();
    await sut.save(alice, { trackIds: [], current: null, positionMs: 0, client: null });
    expect(sut.get(alice)).toBeNull();
  });
});
