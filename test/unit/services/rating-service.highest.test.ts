import { describe, expect, it } from 'vitest';
import { RatingService } from '../../../server/services/rating-service.js';
import { makeUserRecord, principalOf } from '../../factories/accounts.js';
import { makeLibrary } from '../../factories/library.js';
import { newTestService } from '../../fakes/test-service.js';

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

describe('RatingService.highest', () => {
  it("lists the caller's rated items, highest first, leaving out what is gone", async () => {
    const { sut, fakes } = newTestService(RatingService, { library });
    await sut.rate(alice, 'track', 't1', 4);
    await sut.rate(alice, 'track', 't2', 9);
    await sut.rate(bob, 'track', 't1', 10);
    await fakes.ratings.set('track', 'gone', 'alice', 10);
    expect(sut.highest(alice, 'track')).toEqual([
      { id: 't2', rating: 9 },
      { id: 't1', rating: 4 },
    ]);
  });
});
