import { describe, expect, it } from 'vitest';
import { RatingService } from '../../../server/services/rating-service.js';
import { alice, bob, twoTrackLibrary as library } from '../../factories/listeners.js';
import { newTestService } from '../../fakes/test-service.js';

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
