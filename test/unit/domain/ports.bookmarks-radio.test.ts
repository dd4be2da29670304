import { describe, expect, it } from 'vitest';
import type { BookmarkRecord } from '../../../server/domain/bookmark.js';
import type { BookmarksStore, RadioStationsStore } from '../../../server/domain/ports.js';
import type { RadioStationRecord } from '../../../server/domain/radio-station.js';
import { BookmarksRepo } from '../../../server/store/bookmarks-repo.js';
import { RadioStationsRepo } from '../../../server/store/radio-stations-repo.js';
import { FakeBookmarksStore } from '../../fakes/bookmarks-store.js';
import { FakeRadioStationsStore } from '../../fakes/radio-stations-store.js';
import { tempDirPerTest } from '../../support/temp-dir.js';

/** The bookmark and radio-station ports' contracts, run against each repository and its fake alike. */
const temp = tempDirPerTest('melon-ports-bookmarks-');

const mark = (trackId: string, positionMs = 0): BookmarkRecord => ({
  trackId,
  positionMs,
  comment: null,
  createdAt: 1_000,
  changedAt: 1_000,
});

describe.each<[string, () => Promise<BookmarksStore>]>([
  ['BookmarksRepo', () => BookmarksRepo.open(temp.path('bookmarks.json'))],
  ['FakeBookmarksStore', () => Promise.resolve(new FakeBookmarksStore())],
])('%s as BookmarksStore', (_, open) => {
  it("keeps one bookmark a track per user, up to the limit, and forgets a removed user's", async () => {
    const store = await open();
    expect(await store.put('u1', mark('t1'), 2)).toBe('saved');
    expect(await store.put('u1', mark('t2'), 2)).toBe('saved');
    expect(await store.put('u1', mark('t3'), 2)).toBe('too_many');
    expect(await store.put('u1', mark('t1', 5_000), 2)).toBe('saved');
    expect(await store.put('u2', mark('t3'), 2)).toBe('saved');
    expect(store.list('u1').find((item) => item.trackId === 't1')?.positionMs).toBe(5_000);
    expect(await store.remove('u1', 't2')).toBe(true);
    expect(await store.remove('u1', 't2')).toBe(false);
    expect(store.list('u1').map((item) => item.trackId)).toEqual(['t1']);
    await store.removeUser('u2');
    expect(store.list('u2')).toEqual([]);
  });
});

const station = (id: string): RadioStationRecord => ({
  id,
  name: `Station ${id}`,
  streamUrl: `http://radio.example/${id}`,
  homePageUrl: null,
  createdAt: 1_000,
});

describe.each<[string, () => Promise<RadioStationsStore>]>([
  ['RadioStationsRepo', () => RadioStationsRepo.open(temp.path('radio-stations.json'))],
  ['FakeRadioStationsStore', () => Promise.resolve(new FakeRadioStationsStore())],
])('%s as RadioStationsStore', (_, open) => {
  it('lists stations in the order they were added, up to the limit, and changes or removes one', async () => {
    const store = await open();
    expect(await store.add(station('s1'), 2)).toBe('added');
    expect(await store.add(station('s2'), 2)).toBe('added');
    expect(await store.add(station('s3'), 2)).toBe('too_many');
    const patch = { name: 'Renamed', streamUrl: 'http://radio.example/new', homePageUrl: null };
    expect(await store.update('s1', patch)).toMatchObject({ id: 's1', ...patch });
    expect(await store.update('nope', patch)).toBeUndefined();
    expect(await store.remove('s2')).toBe(true);
    expect(await store.remove('s2')).toBe(false);
    expect(store.list()).toEqual([{ ...station('s1'), ...patch }]);
  });
});
