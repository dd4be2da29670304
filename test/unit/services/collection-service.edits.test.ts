import { describe, expect, it } from 'vitest';
import { CollectionService } from '../../../server/services/collection-service.js';
import { principalWithRole } from '../../factories/accounts.js';
import { alice, bob, twoTrackLibrary as library } from '../../factories/listeners.js';
import { newTestService } from '../../fakes/test-service.js';
import { problemOf } from '../../support/problem-of.js';

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
