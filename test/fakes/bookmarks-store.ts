import type { BookmarkRecord } from '../../server/domain/bookmark.js';
import type { BookmarksStore } from '../../server/domain/ports.js';

/** Bookmarks in memory, one per user and track, as BookmarksRepo keeps them. */
export class FakeBookmarksStore implements BookmarksStore {
  readonly bookmarks = new Map<string, Map<string, BookmarkRecord>>();

  list(userId: string): readonly BookmarkRecord[] {
    return [...(this.bookmarks.get(userId)?.values() ?? [])];
  }

  put(userId: string, bookmark: BookmarkRecord, max: number): Promise<'saved' | 'too_many'> {
    const mine = this.bookmarks.get(userId) ?? new Map<string, BookmarkRecord>();
    if (!mine.has(bookmark.trackId) && mine.size >= max) return Promise.resolve('too_many');
    mine.set(bookmark.trackId, bookmark);
    this.bookmarks.set(userId, mine);
    return Promise.resolve('saved');
  }

  remove(userId: string, trackId: string): Promise<boolean> {
    return Promise.resolve(this.bookmarks.get(userId)?.delete(trackId) ?? false);
  }

  removeUser(userId: string): Promise<void> {
    this.bookmarks.delete(userId);
    return Promise.resolve();
  }
}
