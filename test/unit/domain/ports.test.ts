import { describe, expect, it } from 'vitest';
import type { CollectionRecord } from '../../../server/domain/collection.js';
import type { InviteRecord } from '../../../server/domain/user.js';
import { createMemoryLogger } from '../../../server/logger.js';
import type {
  ArtworkStore,
  CollectionsStore,
  FavouritesStore,
  InvitesStore,
  LibraryStore,
  PlayQueuesStore,
  ForwardingStore,
  BookmarksStore,
  RadioStationsStore,
  HiddenMixesStore,
  PlayStore,
  RatingsStore,
  SettingsStore,
  UsersStore,
} from '../../../server/domain/ports.js';
import { ArtworkRepo } from '../../../server/store/artwork-repo.js';
import { CollectionsRepo } from '../../../server/store/collections-repo.js';
import { FavouritesRepo } from '../../../server/store/favourites-repo.js';
import { LibraryRepo } from '../../../server/store/library-repo.js';
import { PlayLog } from '../../../server/store/play-log.js';
import type { PlayLogEntry } from '../../../server/domain/play.js';
import { PlayQueuesRepo } from '../../../server/store/play-queues-repo.js';
import { HiddenMixesRepo } from '../../../server/store/hidden-mixes-repo.js';
import { RatingsRepo } from '../../../server/store/ratings-repo.js';
import { UsersRepo } from '../../../server/store/users-repo.js';
import { makeUserRecord } from '../../factories/accounts.js';
import { makeLibrary, plainLibrary } from '../../factories/library.js';
import { plainTrack } from '../../../server/domain/library.js';
import { makeVariedPlays, outgoingListen } from '../../factories/plays.js';
import { FakeArtworkStore } from '../../fakes/artwork-store.js';
import { FakeCollectionsStore } from '../../fakes/collections-store.js';
import { FakeFavouritesStore } from '../../fakes/favourites-store.js';
import { FakeLibraryStore } from '../../fakes/library-store.js';
import { FakePlayQueuesStore } from '../../fakes/play-queues-store.js';
import { FakeForwardingStore } from '../../fakes/forwarding-store.js';
import { ForwardingRepo } from '../../../server/store/forwarding-repo.js';
import { FakeBookmarksStore } from '../../fakes/bookmarks-store.js';
import { FakeRadioStationsStore } from '../../fakes/radio-stations-store.js';
import { BookmarksRepo } from '../../../server/store/bookmarks-repo.js';
import { RadioStationsRepo } from '../../../server/store/radio-stations-repo.js';
import { FakeHiddenMixesStore } from '../../fakes/hidden-mixes-store.js';
import { FakePlayStore } from '../../fakes/play-store.js';
import { FakeRatingsStore } from '../../fakes/ratings-store.js';
import { FakeUsersStore } from '../../fakes/users-store.js';
import { FakeSettingsStore } from '../../fakes/settings-store.js';
import { SettingsRepo } from '../../../server/store/settings-repo.js';
import { tempDirPerTest } from '../../support/temp-dir.js';

/**
 * The contracts of server/domain/ports.ts, run against each repository and its fake alike: what the
 * service tests rely on a fake for is what the real store does.
 */
const temp = tempDirPerTest('melon-ports-');

type Open<T> = () => Promise<T>;

describe.each<[string, Open<UsersStore & InvitesStore>]>([
  ['UsersRepo', () => UsersRepo.open(temp.path('users.json'))],
  ['FakeUsersStore', () => Promise.resolve(new FakeUsersStore())],
])('%s as UsersStore', (_, open) => {
  it('compares names by usernameKey: a look-alike name is taken and finds the account', async () => {
    const users = await open();
    const alice = makeUserRecord({ username: 'Alice' });
    expect(await users.add(alice)).toBe('added');
    for (const lookAlike of ['alice', 'ＡＬＩＣＥ', 'ALICE']) {
      expect(await users.add(makeUserRecord({ username: lookAlike }))).toBe('username_taken');
      expect(users.findByUsername(lookAlike)?.id).toBe(alice.id);
    }
    expect(users.count()).toBe(1);
    expect(users.list()).toEqual([alice]);
    expect(users.findById(alice.id)).toEqual(alice);
  });

  it('keeps the last Admin, removes others, and says when there is no such user', async () => {
    const users = await open();
    const admin = makeUserRecord({ role: 'Admin' });
    const user = makeUserRecord();
    await users.add(admin);
    await users.add(user);
    expect(await users.remove(admin.id)).toBe('last_admin');
    expect(await users.remove(user.id)).toBe('removed');
    expect(await users.remove(user.id)).toBe('not_found');
    expect(users.findById(user.id)).toBeUndefined();
  });

  it('applies an update and answers the record, or undefined for no such user', async () => {
    const users = await open();
    const user = makeUserRecord();
    await users.add(user);
    expect(await users.update(user.id, { tokenVersion: 3 })).toMatchObject({ id: user.id, tokenVersion: 3 });
    expect(users.findById(user.id)?.tokenVersion).toBe(3);
    expect(await users.update('nobody', { tokenVersion: 3 })).toBeUndefined();
  });
});

const invite = (code: string, now: number, extra: Partial<InviteRecord> = {}): InviteRecord => ({
  id: `invite-${code}`,
  code,
  createdBy: 'admin',
  createdAt: now,
  expiresAt: now + 600_000,
  usedAt: null,
  redeemedAt: null,
  revokedAt: null,
  ...extra,
});

describe.each<[string, Open<UsersStore & InvitesStore>]>([
  ['UsersRepo', () => UsersRepo.open(temp.path('users.json'))],
  ['FakeUsersStore', () => Promise.resolve(new FakeUsersStore())],
])('%s as InvitesStore', (_, open) => {
  const now = 1_000_000;

  it('adds invites up to the active limit, refusing a code that is active already', async () => {
    const users = await open();
    expect(await users.addInvite(invite('AAAA', now), 2)).toBe('added');
    expect(await users.addInvite(invite('AAAA', now, { id: 'other' }), 2)).toBe('code_clash');
    expect(await users.addInvite(invite('BBBB', now), 2)).toBe('added');
    expect(await users.addInvite(invite('CCCC', now), 2)).toBe('too_many');
    expect(users.activeInvites(now).map((record) => record.code)).toEqual(['AAAA', 'BBBB']);
    expect(users.activeInvites(now + 600_000)).toEqual([]);
  });

  it('lets one exchange consume a code, then redeems it with the one user it makes', async () => {
    const users = await open();
    await users.addInvite(invite('AAAA', now), 5);
    expect(await users.consumeInvite('AAAA', now + 1)).toMatchObject({ id: 'invite-AAAA', usedAt: now + 1 });
    expect(await users.consumeInvite('AAAA', now + 2)).toBeUndefined();
    expect(users.activeInvites(now + 2)).toEqual([]);

    expect(await users.add(makeUserRecord({ createdAt: now + 3 }), 'invite-AAAA')).toBe('added');
    expect(users.findInvite('invite-AAAA')?.redeemedAt).toBe(now + 3);
    expect(await users.add(makeUserRecord(), 'invite-AAAA')).toBe('invite_spent');
    expect(await users.add(makeUserRecord(), 'no-such-invite')).toBe('invite_spent');
    expect(users.count()).toBe(1);
  });

  it('revokes every invite that has not made a user, which then neither exchanges nor redeems', async () => {
    const users = await open();
    await users.addInvite(invite('AAAA', now), 5);
    await users.addInvite(invite('BBBB', now), 5);
    await users.consumeInvite('BBBB', now);
    expect(await users.revokeUnredeemedInvites(now + 1)).toBe(2);
    expect(await users.consumeInvite('AAAA', now + 2)).toBeUndefined();
    expect(await users.add(makeUserRecord(), 'invite-BBBB')).toBe('invite_spent');
    expect(users.findInvite('invite-AAAA')?.revokedAt).toBe(now + 1);
  });
});

describe.each<[string, Open<RatingsStore>]>([
  ['RatingsRepo', () => RatingsRepo.open(temp.path('ratings.json'))],
  ['FakeRatingsStore', () => Promise.resolve(new FakeRatingsStore())],
])('%s as RatingsStore', (_, open) => {
  it('keeps one rating per user and target, removed by 0, averaged to two decimals', async () => {
    const ratings = await open();
    await ratings.set('track', 't1', 'u1', 4);
    await ratings.set('track', 't1', 'u1', 1);
    await ratings.set('track', 't1', 'u2', 1);
    await ratings.set('track', 't1', 'u3', 2);
    await ratings.set('album', 't1', 'u1', 9);
    expect(ratings.summary('track', 't1', 'u1')).toEqual({
      userRating: 1,
      averageRating: 1.33,
      ratingCount: 3,
    });
    expect(ratings.summary('track', 't1', null)).toEqual({
      userRating: null,
      averageRating: 1.33,
      ratingCount: 3,
    });
    await ratings.set('track', 't1', 'u3', 0);
    expect(ratings.summary('track', 't1', 'u3')).toEqual({
      userRating: null,
      averageRating: 1,
      ratingCount: 2,
    });
    await ratings.removeUser('u1');
    expect(ratings.summary('track', 't1', 'u1')).toEqual({
      userRating: null,
      averageRating: 1,
      ratingCount: 1,
    });
    expect(ratings.summary('album', 't1', 'u1')).toEqual({
      userRating: null,
      averageRating: null,
      ratingCount: 0,
    });
  });

  it("lists one user's ratings of one kind", async () => {
    const ratings = await open();
    await ratings.set('album', 'a1', 'u1', 6);
    await ratings.set('album', 'a2', 'u2', 8);
    await ratings.set('track', 't1', 'u1', 2);
    expect(ratings.ratedBy('album', 'u1')).toEqual([{ id: 'a1', rating: 6 }]);
    expect(ratings.ratedBy('artist', 'u1')).toEqual([]);
  });

  it('lists the items of one kind that anyone rated, and forgets one whose last rating is removed', async () => {
    const ratings = await open();
    await ratings.set('artist', 'ar1', 'u1', 6);
    await ratings.set('artist', 'ar2', 'u2', 8);
    await ratings.set('album', 'a1', 'u1', 2);
    await ratings.set('artist', 'ar2', 'u2', 0);
    expect(ratings.ratedByAnyone('artist')).toEqual(['ar1']);
    expect(ratings.ratedByAnyone('track')).toEqual([]);
  });
});

describe.each<[string, Open<CollectionsStore>]>([
  ['CollectionsRepo', () => CollectionsRepo.open(temp.path('playlists.json'))],
  ['FakeCollectionsStore', () => Promise.resolve(new FakeCollectionsStore())],
])('%s as CollectionsStore', (_, open) => {
  it('keeps playlists and collections apart, in the order they were added', async () => {
    const collections = await open();
    const record = (id: string): CollectionRecord => ({
      id,
      name: id,
      description: null,
      trackIds: [],
      owner: 'u1',
      createdAt: 0,
    });
    await collections.add('playlist', record('b'));
    await collections.add('playlist', record('a'));
    await collections.add('collection', record('c'));
    expect(collections.list('playlist').map((item) => item.id)).toEqual(['b', 'a']);
    expect(collections.find('playlist', 'a')).toEqual(record('a'));
    expect(collections.find('collection', 'a')).toBeUndefined();
    expect(collections.find('collection', 'c')).toEqual(record('c'));
  });

  it('changes and removes one record of one kind; false when it is not there', async () => {
    const collections = await open();
    const record: CollectionRecord = {
      id: 'p',
      name: 'P',
      description: null,
      trackIds: ['t1'],
      owner: 'u1',
      createdAt: 0,
    };
    await collections.add('playlist', record);
    expect(await collections.update('playlist', 'p', (r) => r.trackIds.push('t2'))).toBe(true);
    expect(collections.find('playlist', 'p')?.trackIds).toEqual(['t1', 't2']);
    expect(await collections.update('collection', 'p', () => undefined)).toBe(false);
    expect(await collections.remove('collection', 'p')).toBe(false);
    expect(await collections.remove('playlist', 'p')).toBe(true);
    expect(collections.list('playlist')).toEqual([]);
    expect(await collections.remove('playlist', 'p')).toBe(false);
  });
});

const ownerId = 'ar1';
describe.each<[string, Open<ArtworkStore>]>([
  ['ArtworkRepo', () => ArtworkRepo.open(temp.path())],
  ['FakeArtworkStore', () => Promise.resolve(new FakeArtworkStore())],
])('%s as ArtworkStore', (_, open) => {
  const bytes = (value: number) => new Uint8Array([value, value, value]);

  it('appends artist images; a removal moves later ones down; a missing position is false', async () => {
    const artwork = await open();
    expect(await artwork.addArtistImage(ownerId, 'pfp', bytes(1), 'image/png')).toBe(0);
    expect(await artwork.addArtistImage(ownerId, 'pfp', bytes(2), 'image/jpeg')).toBe(1);
    expect(artwork.artistImages(ownerId, 'banner')).toEqual([]);
    expect(await artwork.removeArtistImage(ownerId, 'pfp', 2)).toBe(false);
    expect(await artwork.removeArtistImage(ownerId, 'pfp', 0)).toBe(true);
    const [left] = artwork.artistImages(ownerId, 'pfp');
    expect(left).toMatchObject({ mime: 'image/jpeg', size: 3 });
    expect(await artwork.read(left!)).toEqual(Buffer.from(bytes(2)));
    expect(await artwork.removeArtistImage('ar2', 'pfp', 0)).toBe(false);
  });

  it('keeps one image per playlist, collection and default, replaced by the next; removal of none is false', async () => {
    const artwork = await open();
    expect(await artwork.removeSingle('default', null)).toBe(false);
    expect(await artwork.removeSingle('playlist', 'p1')).toBe(false);
    await artwork.setSingle('playlist', 'p1', bytes(1), 'image/png');
    await artwork.setSingle('playlist', 'p1', bytes(2), 'image/webp');
    await artwork.setSingle('default', null, bytes(3), 'image/png');
    expect(artwork.single('playlist', 'p1')).toMatchObject({ mime: 'image/webp' });
    expect(await artwork.read(artwork.single('playlist', 'p1')!)).toEqual(Buffer.from(bytes(2)));
    expect(artwork.single('collection', 'p1')).toBeUndefined();
    expect(await artwork.read(artwork.defaultImage()!)).toEqual(Buffer.from(bytes(3)));
    expect(await artwork.removeSingle('playlist', 'p1')).toBe(true);
    expect(await artwork.removeSingle('default', null)).toBe(true);
    expect(artwork.single('playlist', 'p1')).toBeUndefined();
    expect(artwork.defaultImage()).toBeNull();
  });
});

describe.each<[string, Open<LibraryStore>]>([
  ['LibraryRepo', () => LibraryRepo.open(temp.path('library.json'))],
  ['FakeLibraryStore', () => Promise.resolve(new FakeLibraryStore())],
])('%s as LibraryStore', (_, open) => {
  it('finds what the last scan stored, and a replaced track', async () => {
    const library = await open();
    const index = makeLibrary({
      artists: [{ id: 'ar1' }],
      albums: [{ id: 'al1' }],
      tracks: [{ id: 't1' }, { id: 't2' }],
    });
    expect(library.track('t1')).toBeUndefined();
    // The store takes a scan's lists over (their tracks become the store's): it gets a copy.
    await library.replace(structuredClone(index));
    expect(plainLibrary(library.index())).toMatchObject(index);
    expect(library.album('al1')).toEqual(index.albums[0]);
    expect(library.artist('ar1')).toEqual(index.artists[0]);
    const edited = { ...index.tracks[1]!, name: 'Edited' };
    await library.updateTrack(edited);
    expect(plainTrack(library.track('t2')!)).toEqual(edited);
    expect(library.index().tracks.map((track) => track.name)).toEqual([index.tracks[0]!.name, 'Edited']);
  });
});

describe.each<[string, (onEntry: (entry: PlayLogEntry) => void) => Promise<PlayStore>]>([
  [
    'PlayLog',
    async (onEntry) => {
      const log = await PlayLog.open(temp.path('plays.jsonl'), { logger: createMemoryLogger(), onEntry });
      temp.closeAfter(() => log.close());
      return log;
    },
  ],
  ['FakePlayStore', (onEntry) => Promise.resolve(new FakePlayStore(onEntry))],
])('%s as PlayStore', (_, open) => {
  it('hands each entry on, in order, before its append resolves', async () => {
    const seen: PlayLogEntry[] = [];
    const plays = await open((entry) => seen.push(entry));
    const [first, second] = makeVariedPlays(2);
    const appended = [
      plays.append(first!).then(() => seen.length),
      plays.append(second!).then(() => seen.length),
    ];
    const [firstSaw, secondSaw] = await Promise.all(appended);
    expect(firstSaw).toBeGreaterThanOrEqual(1);
    expect(secondSaw).toBe(2);
    expect(seen).toEqual([first, second]);
  });

  it('hands every entry of a batch on, in order, before the batch resolves', async () => {
    const seen: PlayLogEntry[] = [];
    const plays = await open((entry) => seen.push(entry));
    const batch = makeVariedPlays(5);
    await plays.appendMany(batch);
    expect(seen).toEqual(batch);
    await plays.appendMany([]);
    expect(seen).toHaveLength(5);
  });
});

describe.each<[string, Open<FavouritesStore>]>([
  ['FavouritesRepo', () => FavouritesRepo.open(temp.path('favourites.json'))],
  ['FakeFavouritesStore', () => Promise.resolve(new FakeFavouritesStore())],
])('%s as FavouritesStore', (_, open) => {
  it('keeps the first date of a star, per user and kind, and says whether anything changed', async () => {
    const favourites = await open();
    expect(await favourites.star('u1', [{ kind: 'track', id: 't1' }], 10)).toBe(true);
    expect(await favourites.star('u1', [{ kind: 'track', id: 't1' }], 20)).toBe(false);
    await favourites.star('u2', [{ kind: 'album', id: 't1' }], 30);
    expect(favourites.starredAt('u1', 'track', 't1')).toBe(10);
    expect(favourites.starredAt('u1', 'album', 't1')).toBeUndefined();
    expect(favourites.list('u1', 'track')).toEqual({ t1: 10 });
    expect(favourites.list('u3', 'track')).toEqual({});
    expect(await favourites.unstar('u1', [{ kind: 'track', id: 't1' }])).toBe(true);
    expect(await favourites.unstar('u1', [{ kind: 'track', id: 't1' }])).toBe(false);
    expect(favourites.list('u2', 'album')).toEqual({ t1: 30 });
  });

  it("drops a user's favourites of every kind, and only theirs", async () => {
    const favourites = await open();
    await favourites.star('u1', [{ kind: 'track', id: 't1' }], 10);
    await favourites.star('u1', [{ kind: 'album', id: 'a1' }], 10);
    await favourites.star('u2', [{ kind: 'track', id: 't1' }], 20);
    await favourites.removeUser('u1');
    expect(favourites.list('u1', 'track')).toEqual({});
    expect(favourites.list('u1', 'album')).toEqual({});
    expect(favourites.list('u2', 'track')).toEqual({ t1: 20 });
  });
});

describe.each<[string, Open<PlayQueuesStore>]>([
  ['PlayQueuesRepo', () => PlayQueuesRepo.open(temp.path('play-queues.json'))],
  ['FakePlayQueuesStore', () => Promise.resolve(new FakePlayQueuesStore())],
])('%s as PlayQueuesStore', (_, open) => {
  it('keeps one queue per user; an empty one removes it', async () => {
    const queues = await open();
    const queue = { trackIds: ['t1'], current: 't1', positionMs: 5, changedAt: 1, changedBy: 'Car' };
    await queues.save('u1', queue);
    expect(queues.find('u1')).toEqual(queue);
    expect(queues.find('u2')).toBeUndefined();
    await queues.save('u1', { ...queue, trackIds: [], current: null });
    expect(queues.find('u1')).toBeUndefined();
  });

  it("drops a user's queue, and only theirs", async () => {
    const queues = await open();
    const queue = { trackIds: ['t1'], current: 't1', positionMs: 5, changedAt: 1, changedBy: 'Car' };
    await queues.save('u1', queue);
    await queues.save('u2', queue);
    await queues.removeUser('u1');
    expect(queues.find('u1')).toBeUndefined();
    expect(queues.find('u2')).toEqual(queue);
  });
});

describe.each<[string, Open<BookmarksStore>]>([
  ['BookmarksRepo', () => BookmarksRepo.open(temp.path('bookmarks.json'))],
  ['FakeBookmarksStore', () => Promise.resolve(new FakeBookmarksStore())],
])('%s as BookmarksStore', (_, open) => {
  const at = (trackId: string, positionMs: number) => ({
    trackId,
    positionMs,
    comment: null,
    createdAt: 1,
    changedAt: 1,
  });

  it('keeps one bookmark per user and track, refusing a new one past the limit', async () => {
    const bookmarks = await open();
    expect(await bookmarks.put('u1', at('t1', 10), 2)).toBe('saved');
    expect(await bookmarks.put('u1', at('t2', 20), 2)).toBe('saved');
    expect(await bookmarks.put('u1', at('t3', 30), 2)).toBe('too_many');
    expect(await bookmarks.put('u1', at('t1', 15), 2)).toBe('saved');
    expect(bookmarks.list('u1')).toEqual([at('t1', 15), at('t2', 20)]);
    expect(bookmarks.list('u2')).toEqual([]);
  });

  it("removes one bookmark, or all of a user's, and only theirs", async () => {
    const bookmarks = await open();
    await bookmarks.put('u1', at('t1', 10), 5);
    await bookmarks.put('u2', at('t1', 20), 5);
    expect(await bookmarks.remove('u1', 't9')).toBe(false);
    expect(await bookmarks.remove('u1', 't1')).toBe(true);
    expect(bookmarks.list('u1')).toEqual([]);
    await bookmarks.put('u1', at('t2', 10), 5);
    await bookmarks.removeUser('u1');
    expect(bookmarks.list('u1')).toEqual([]);
    expect(bookmarks.list('u2')).toEqual([at('t1', 20)]);
  });
});

describe.each<[string, Open<RadioStationsStore>]>([
  ['RadioStationsRepo', () => RadioStationsRepo.open(temp.path('radio-stations.json'))],
  ['FakeRadioStationsStore', () => Promise.resolve(new FakeRadioStationsStore())],
])('%s as RadioStationsStore', (_, open) => {
  const station = (id: string) => ({
    id,
    name: `Station ${id}`,
    streamUrl: `https://radio.example.org/${id}`,
    homePageUrl: null,
    createdAt: 1,
  });

  it('adds stations in order up to the limit, changes and removes them by id', async () => {
    const stations = await open();
    expect(await stations.add(station('a'), 2)).toBe('added');
    expect(await stations.add(station('b'), 2)).toBe('added');
    expect(await stations.add(station('c'), 2)).toBe('too_many');
    const patch = { name: 'Jazz', streamUrl: 'https://radio.example.org/jazz', homePageUrl: null };
    expect(await stations.update('b', patch)).toEqual({ ...station('b'), ...patch });
    expect(await stations.update('zz', patch)).toBeUndefined();
    expect(await stations.remove('a')).toBe(true);
    expect(await stations.remove('a')).toBe(false);
    expect(stations.list()).toEqual([{ ...station('b'), ...patch }]);
  });
});

describe.each<[string, Open<HiddenMixesStore>]>([
  ['HiddenMixesRepo', () => HiddenMixesRepo.open(temp.path('mixes.json'))],
  ['FakeHiddenMixesStore', () => Promise.resolve(new FakeHiddenMixesStore())],
])('%s as HiddenMixesStore', (_, open) => {
  it('keeps what each user hid, and says whether a change changed anything', async () => {
    const mixes = await open();
    expect(await mixes.setHidden('u1', 'mix-new', true)).toBe(true);
    expect(await mixes.setHidden('u1', 'mix-new', true)).toBe(false);
    expect(await mixes.setHidden('u1', 'mix-on-repeat', true)).toBe(true);
    expect(mixes.hidden('u1')).toEqual(['mix-new', 'mix-on-repeat']);
    expect(mixes.hidden('u2')).toEqual([]);
    expect(await mixes.setHidden('u1', 'mix-new', false)).toBe(true);
    expect(await mixes.setHidden('u1', 'mix-new', false)).toBe(false);
    expect(mixes.hidden('u1')).toEqual(['mix-on-repeat']);
  });

  it('drops what a user hid, and only theirs', async () => {
    const mixes = await open();
    await mixes.setHidden('u1', 'mix-new', true);
    await mixes.setHidden('u2', 'mix-new', true);
    await mixes.removeUser('u1');
    expect(mixes.hidden('u1')).toEqual([]);
    expect(mixes.hidden('u2')).toEqual(['mix-new']);
  });
});

describe.each<[string, Open<SettingsStore>]>([
  ['SettingsRepo', () => SettingsRepo.open(temp.path('settings.json'))],
  ['FakeSettingsStore', () => Promise.resolve(new FakeSettingsStore())],
])('SettingsStore contract: %s', (_name, open) => {
  it('starts with the daily check on and the welcome card open, and keeps what is set', async () => {
    const settings = await open();
    expect(settings.get()).toEqual({ updateCheck: 'daily', welcomeDismissed: false });
    expect(await settings.set({ updateCheck: 'off' })).toEqual({
      updateCheck: 'off',
      welcomeDismissed: false,
    });
    await settings.set({ welcomeDismissed: true });
    expect(settings.get()).toEqual({ updateCheck: 'off', welcomeDismissed: true });
  });
});

describe.each<[string, Open<ForwardingStore>]>([
  ['ForwardingRepo', () => ForwardingRepo.open(temp.path('forwarding.json'))],
  ['FakeForwardingStore', () => Promise.resolve(new FakeForwardingStore())],
])('%s as ForwardingStore', (_, open) => {
  const listen = (title: string) => outgoingListen(title);
  const titles = (store: ForwardingStore) => store.find('u1')!.queue.map((item) => item.title);

  it('queues only while on, keeps the newest when full, and empties when turned off', async () => {
    const store = await open();
    expect(await store.enqueue('u1', [listen('a')], 2, 0)).toBe(0);
    expect(store.find('u1')).toBeUndefined();
    await store.configure('u1', 'http://127.0.0.1:9', 'sealed');
    expect(await store.enqueue('u1', [listen('a'), listen('b'), listen('c')], 2, 5)).toBe(1);
    expect(titles(store)).toEqual(['b', 'c']);
    expect(store.find('u1')!.lastError?.code).toBe('outbox_full');
    expect(store.pending()).toEqual(['u1']);
    await store.configure('u1', 'http://127.0.0.1:9', null);
    expect(titles(store)).toEqual([]);
    expect(store.pending()).toEqual([]);
  });

  it('takes, drops and fails only under the epoch the send began in', async () => {
    const store = await open();
    await store.configure('u1', 'http://127.0.0.1:9', 'sealed');
    await store.enqueue('u1', [listen('a'), listen('b'), listen('c')], 10, 0);
    const { epoch } = store.find('u1')!;
    await store.sent('u1', epoch, 1, 7);
    await store.dropped('u1', epoch, 1, { code: 'listen_refused', message: 'no', at: 8 });
    expect(titles(store)).toEqual(['c']);
    expect(store.find('u1')).toMatchObject({ lastSentAt: 7, lastError: { code: 'listen_refused' } });
    await store.configure('u1', 'http://127.0.0.1:9', 'other');
    await store.failed('u1', epoch, { code: 'token_refused', message: 'no', at: 9 });
    expect(store.find('u1')).toMatchObject({ tokenRefused: false, lastError: null });
    await store.removeUser('u1');
    expect(store.find('u1')).toBeUndefined();
  });
});
