import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../../../server/clock.js';
import { StatsService } from '../../../../server/services/stats/stats-service.js';
import { makeUserRecord, principalOf } from '../../../factories/accounts.js';
import { makeLibrary } from '../../../factories/library.js';
import { newTestService } from '../../../fakes/test-service.js';

const library = makeLibrary({
  artists: [{ id: 'ar1' }],
  albums: [{ id: 'al1', artistIds: ['ar1'] }],
  tracks: [{ id: 't1', artistIds: ['ar1'], albumId: 'al1', durationMs: 1000, genres: ['Jazz'] }],
});

describe('StatsNames', () => {
  it('answers each top list’s items with their keys in the order docs/API.md lists them', async () => {
    const t = newTestService(StatsService, { library });
    const user = makeUserRecord();
    await t.fakes.users.add(user);
    const caller = principalOf(user);
    await t.sut.log(caller, 'play', { id: 't1', dateTime: t.clock.now() - MINUTE_MS });
    const read = { page: 0, count: 10 };
    const keys = async (kind: 'tracks' | 'albums' | 'artists' | 'genres') =>
      Object.keys((await t.sut.top(caller, kind, read))[0]!);
    expect(await keys('tracks')).toEqual([
      'rank',
      'id',
      'name',
      'album',
      'artists',
      'plays',
      'skips',
      'listeningMs',
      'lastPlayedAt',
    ]);
    expect(await keys('albums')).toEqual([
      'rank',
      'id',
      'name',
      'artists',
      'plays',
      'listeningMs',
      'lastPlayedAt',
    ]);
    expect(await keys('artists')).toEqual(['rank', 'id', 'name', 'plays', 'listeningMs', 'lastPlayedAt']);
    expect(await keys('genres')).toEqual(['rank', 'genre', 'plays', 'listeningMs', 'lastPlayedAt']);
  });
});
