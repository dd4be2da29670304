import { describe, expect, it } from 'vitest';
import { FavouritesService } from '../../../server/services/favourites-service.js';
import { PlayQueueService } from '../../../server/services/play-queue-service.js';
import { CollectionService } from '../../../server/services/collection-service.js';
import { RatingService } from '../../../server/services/rating-service.js';
import { makeUserRecord, principalOf, principalWithRole } from '../../factories/accounts.js';
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

describe('CollectionService.update and delete', () => {
  it('lets the owner or an Admin change a playlist: rename, remove by position, add', async () => {
    const { sut } = newTestService(CollectionService, { library });
    const made = await sut.create('playlist', alice, { name: 'Mix', trackIds: ['t1', 't2', 't1'] });
    const changed = await sut.update('playlist', alice, made.id, {
      name: 'Better mix',
      removePositions: [0, 2],
      addTrackIds: ['t1'],
    });
    expect(changed).toMatchObject({ name: 'Better mix', trackIds: ['t2', 't1'] });
    expect(await problemOf(() => sut.update('playlist', bob, made.id, { name: 'mine' }))).toBe(
      '403 not_owner',
    );
    expect(await problemOf(() => sut.delete('playlist', bob, made.id))).toBe('403 not_owner');
    expect(sut.get('playlist', made.id).name).toBe('Better mix');
    await sut.delete('playlist', principalWithRole('Admin'), made.id);
    expect(await problemOf(() => sut.get('playlist', made.id))).toBe('404 playlist_not_found');
  });
});

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
