import { beforeEach, describe, expect, it } from 'vitest';
import type { RatingKind } from '../../../server/domain/rating.js';
import type { UserRecord } from '../../../server/domain/user.js';
import { RatingService } from '../../../server/services/rating-service.js';
import { makeUserRecord, principalOf } from '../../factories/accounts.js';
import { oneAlbumLibrary } from '../../factories/library.js';
import { newTestService } from '../../fakes/test-service.js';
import { problemOf } from '../../support/problem-of.js';

const library = oneAlbumLibrary(1);

let t: ReturnType<typeof newTestService<typeof RatingService>>;
let admin: UserRecord;
let alice: UserRecord;
let bob: UserRecord;
beforeEach(async () => {
  t = newTestService(RatingService, { library });
  admin = makeUserRecord({ role: 'Admin' });
  alice = makeUserRecord();
  bob = makeUserRecord();
  for (const user of [admin, alice, bob]) await t.fakes.users.add(user);
});

/** The rating figures of a track as `user` sees them (GET /api/tracks/:id). */
function trackAs(user: UserRecord) {
  const { userRating, averageRating, ratingCount } = t.services.library.getTrack(principalOf(user), 't1');
  return { userRating, averageRating, ratingCount };
}

describe('RatingService', () => {
  it("keeps one rating per user, replaced by the next, and averages everyone's", async () => {
    expect(await t.sut.rate(principalOf(alice), 'track', 't1', 4)).toEqual({ id: 't1', rating: 4 });
    await t.sut.rate(principalOf(alice), 'track', 't1', 7);
    await t.sut.rate(principalOf(bob), 'track', 't1', 10);
    expect(trackAs(alice)).toEqual({ userRating: 7, averageRating: 8.5, ratingCount: 2 });
    expect(trackAs(admin)).toEqual({ userRating: null, averageRating: 8.5, ratingCount: 2 });
  });

  it('removes the caller’s rating when given 0', async () => {
    await t.sut.rate(principalOf(alice), 'track', 't1', 4);
    await t.sut.rate(principalOf(bob), 'track', 't1', 5);
    await t.sut.rate(principalOf(alice), 'track', 't1', 0);
    expect(trackAs(alice)).toEqual({ userRating: null, averageRating: 5, ratingCount: 1 });
    await t.sut.rate(principalOf(bob), 'track', 't1', 0);
    expect(trackAs(bob)).toEqual({ userRating: null, averageRating: null, ratingCount: 0 });
  });

  it('rounds averages to two decimals', async () => {
    await t.sut.rate(principalOf(admin), 'track', 't1', 1);
    await t.sut.rate(principalOf(alice), 'track', 't1', 1);
    await t.sut.rate(principalOf(bob), 'track', 't1', 2);
    expect(trackAs(alice).averageRating).toBe(1.33);
  });

  it('leaves a deleted user out of the averages', async () => {
    await t.sut.rate(principalOf(alice), 'track', 't1', 2);
    await t.sut.rate(principalOf(bob), 'track', 't1', 8);
    await t.sut.rate(principalOf(bob), 'album', 'al1', 8);
    await t.services.users.delete(bob.id);
    expect(trackAs(alice)).toEqual({ userRating: 2, averageRating: 2, ratingCount: 1 });
    expect(t.services.library.getAlbum(principalOf(alice), 'al1')).toMatchObject({
      averageRating: null,
      ratingCount: 0,
    });
  });

  it('rates tracks, albums and artists apart, and refuses unknown ones with 404', async () => {
    await t.sut.rate(principalOf(alice), 'artist', 'ar1', 6);
    expect(t.services.library.getArtist(principalOf(alice), 'ar1')).toMatchObject({ userRating: 6 });
    expect(trackAs(alice).userRating).toBeNull();
    const unknown = (kind: RatingKind) => problemOf(() => t.sut.rate(principalOf(alice), kind, 'nope', 5));
    expect(await unknown('track')).toBe('404 track_not_found');
    expect(await unknown('album')).toBe('404 album_not_found');
    expect(await unknown('artist')).toBe('404 artist_not_found');
    expect(t.fakes.ratings.summary('track', 'nope', alice.id).ratingCount).toBe(0);
  });

  it('refuses a Server token, which has no account to rate with', async () => {
    const server = {
      userId: null,
      username: null,
      role: 'Server' as const,
      expiresAt: Infinity,
      inviteId: 'i1',
    };
    expect(await problemOf(() => t.sut.rate(server, 'track', 't1', 5))).toBe('401 forbidden_role');
  });
});
