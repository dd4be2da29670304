import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BookmarkRecord } from '../../../server/domain/bookmark.js';
import { BookmarksRepo } from '../../../server/store/bookmarks-repo.js';

const at = (trackId: string, positionMs: number): BookmarkRecord => ({
  trackId,
  positionMs,
  comment: null,
  createdAt: 1,
  changedAt: 1,
});
const fresh = async () => join(await mkdtemp(join(tmpdir(), 'melon-bookmarks-')), 'bookmarks.json');

describe('BookmarksRepo', () => {
  it('refuses a new bookmark past the limit, but still moves one the user has', async () => {
    const repo = await BookmarksRepo.open(await fresh());
    expect(await repo.put('u1', at('t1', 10), 2)).toBe('saved');
    expect(await repo.put('u1', at('t2', 20), 2)).toBe('saved');
    expect(await repo.put('u1', at('t3', 30), 2)).toBe('too_many');
    expect(await repo.put('u1', at('t1', 15), 2)).toBe('saved');
    expect(await repo.put('u2', at('t3', 30), 2)).toBe('saved');
    expect(repo.list('u1').map((bookmark) => [bookmark.trackId, bookmark.positionMs])).toEqual([
      ['t1', 15],
      ['t2', 20],
    ]);
  });

  it('is on disk once a change resolves, and forgets a deleted account', async () => {
    const path = await fresh();
    const repo = await BookmarksRepo.open(path);
    await repo.put('u1', at('t1', 10), 5);
    await repo.put('u2', at('t1', 20), 5);
    expect(await repo.remove('u1', 't9')).toBe(false);
    await repo.removeUser('u2');
    const file = JSON.parse(await readFile(path, 'utf8')) as { bookmarks: Record<string, unknown> };
    expect(Object.keys(file.bookmarks)).toEqual(['u1']);
    expect((await BookmarksRepo.open(path)).list('u1')).toEqual([at('t1', 10)]);
  });
});
