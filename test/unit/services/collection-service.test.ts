import { beforeEach, describe, expect, it } from 'vitest';
import { CollectionService } from '../../../server/services/collection-service.js';
import { principalWithRole } from '../../factories/accounts.js';
import { makeLibrary } from '../../factories/library.js';
import { newTestService } from '../../fakes/test-service.js';
import { problemOf } from '../../support/problem-of.js';

const library = makeLibrary({ artists: [], albums: [], tracks: [{ id: 't1' }, { id: 't2' }] });
const caller = principalWithRole('User', 'u1');
const page = (extra: object = {}) => ({ page: 0, count: 10, ...extra });

let t: ReturnType<typeof newTestService<typeof CollectionService>>;
beforeEach(() => {
  t = newTestService(CollectionService, { library });
});

describe('CollectionService', () => {
  it('creates a playlist owned by the caller, and gets it back', async () => {
    const made = await t.sut.create('playlist', caller, { name: 'Mix', trackIds: ['t2', 't1'] });
    expect(made).toEqual({
      id: made.id,
      name: 'Mix',
      description: null,
      trackIds: ['t2', 't1'],
      owner: 'u1',
      hasArtwork: false,
    });
    expect(t.sut.get('playlist', made.id)).toEqual(made);
    expect(t.fakes.collections.find('playlist', made.id)?.createdAt).toBe(t.clock.now());
  });

  it('refuses a track that is not in the library with 400 invalid_parameter, storing nothing', async () => {
    expect(
      await problemOf(() => t.sut.create('playlist', caller, { name: 'Mix', trackIds: ['t1', 'nope'] })),
    ).toBe('400 invalid_parameter');
    expect(t.fakes.collections.list('playlist')).toEqual([]);
  });

  it('answers 404 playlist_not_found or collection_not_found for an unknown id', async () => {
    const made = await t.sut.create('playlist', caller, { name: 'Mix' });
    expect(await problemOf(() => t.sut.get('playlist', 'nope'))).toBe('404 playlist_not_found');
    expect(await problemOf(() => t.sut.get('playlist', '../x'))).toBe('404 playlist_not_found');
    // Playlists and collections are separate lists.
    expect(await problemOf(() => t.sut.get('collection', made.id))).toBe('404 collection_not_found');
  });

  it('lists by name, ignoring case and reading numbers as numbers, filtered and paged', async () => {
    for (const name of ['mix 10', 'Mix 9', 'chill', 'Road trip'])
      await t.sut.create('collection', caller, { name });
    const names = (query: object) => t.sut.list('collection', page(query)).items.map((item) => item.name);
    expect(names({})).toEqual(['chill', 'Mix 9', 'mix 10', 'Road trip']);
    expect(names({ q: 'MIX' })).toEqual(['Mix 9', 'mix 10']);
    expect(t.sut.list('collection', page({ page: 1, count: 3 }))).toMatchObject({
      page: 1,
      count: 3,
      total: 4,
    });
    expect(names({ page: 1, count: 3 })).toEqual(['Road trip']);
    expect(t.sut.list('playlist', page()).total).toBe(0);
  });

  it('says whether a collection has artwork', async () => {
    const made = await t.sut.create('collection', caller, { name: 'Covers' });
    await t.fakes.artwork.setSingle('collection', made.id, new Uint8Array([1]), 'image/png');
    expect(t.sut.get('collection', made.id).hasArtwork).toBe(true);
  });
});
