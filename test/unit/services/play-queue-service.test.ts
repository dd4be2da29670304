import { describe, expect, it } from 'vitest';
import { PlayQueueService } from '../../../server/services/play-queue-service.js';
import { makeUserRecord, principalOf } from '../../factories/accounts.js';
import { makeLibrary } from '../../factories/library.js';
import { newTestService } from '../../fakes/test-service.js';
import { problemOf } from '../../support/problem-of.js';

const library = makeLibrary({
  artists: [{ id: 'ar1' }],
  albums: [{ id: 'al1', artistIds: ['ar1'] }],
  tracks: [
    { id: 't1', artistIds: ['ar1'], albumId: 'al1' },
    { id: 't2', artistIds: ['ar1'], albumId: 'al1' },
  ],
});
const alice = principalOf(makeUserRecord({ id: 'alice' }));
const bob = principalOf(makeUserRecord({ id: 'bob' }));

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
