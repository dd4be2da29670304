import { describe, expect, it } from 'vitest';
import { FavouritesService } from '../../../server/services/favourites-service.js';
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
