import type { BookmarkRecord } from '../../server/domain/bookmark.js';
import type { BookmarksStore } from '../../server/domain/ports.js';

/** Each user's bookmarks in memory, one a track, with BookmarksRepo's limit. */
export class FakeBookmarksStore implements BookmarksStore {
  private readonly byUser = new Map<string, Map<string, BookmarkRecord>>();

  list(userId: string): readonly BookmarkRecord[] {
    return [...(this.byUser.get(userId)?.values() ?? [])];
  }

  put(userId: string, bookmark: BookmarkRecord, max: number): Promise<'saved' | 'too_many'> {
    const mine = this.byUser.get(userId) ?? new Map<string, BookmarkRecord>();
    if (!mine.has(bookmark.trackId) && mine.size >= max) return Promise.resolve('too_many');
    mine.set(bookmark.trackId, bookmark);
    this.byUser.set(userId, mine);
    return Promise.resolve('saved');
  }

  remove(userId: string, trackId: string): Promise<boolean> {
    return Promise.resolve(this.byUser.get(userId)?.delete(trackId) ?? false);
  }

  removeUser(userId: string): Promise<void> {
    this.byUser.delete(userId);
    return Promise.resolve();
  }
}
