import { describe, expect, it } from 'vitest';
import { FavouritesService } from '../../../server/services/favourites-service.js';
import { alice, bob, twoTrackLibrary as library } from '../../factories/listeners.js';
import { newTestService } from '../../fakes/test-service.js';
import { problemOf } from '../../support/problem-of.js';

describe('FavouritesService', () => {
  it("keeps each user's stars with their first date, latest first, and only what exists", async () => {
    const { sut, clock, fakes } = newTestService(FavouritesService, { library });
    await sut.star(alice, [{ kind: 'track', id: 't1' }]);
    clock.advance(1000);
    await sut.star(alice, [
      { kind: 'track', id: 't2' },
      { kind: 'track', id: 't1' },
    ]);
    expect(sut.list(alice, 'track').map((item) => item.id)).toEqual(['t2', 't1']);
    expect(sut.starredAt(alice, 'track', 't1')).toBe(clock.now() - 1000);
    expect(sut.list(bob, 'track')).toEqual([]);
    expect(
      await problemOf(() =>
        sut.star(alice, [
          { kind: 'album', id: 'al1' },
          { kind: 'artist', id: 'nope' },
        ]),
      ),
    ).toBe('404 artist_not_found');
    expect(sut.list(alice, 'album')).toEqual([]);
    // A track gone from the library is not listed, and can still be unstarred.
    await fakes.favourites.star('alice', [{ kind: 'track', id: 'gone' }], 5);
    expect(sut.list(alice, 'track').map((item) => item.id)).toEqual(['t2', 't1']);
    await sut.unstar(alice, [{ kind: 'track', id: 'gone' }]);
    expect(fakes.favourites.starredAt('alice', 'track', 'gone')).toBeUndefined();
  });
});
