import type { BookmarkRecord } from '../domain/bookmark.js';
import type { BookmarksStore } from '../domain/ports.js';
import { JsonDocument, type Versioned } from './json-document.js';

interface BookmarksFile extends Versioned {
  /** user id → track id → the user's bookmark in that track. */
  bookmarks: Record<string, Record<string, BookmarkRecord>>;
}

/** Each user's bookmarks (bookmarks.json). */
export class BookmarksRepo implements BookmarksStore {
  private constructor(private readonly doc: JsonDocument<BookmarksFile>) {}

  static async open(path: string): Promise<BookmarksRepo> {
    return new BookmarksRepo(
      await JsonDocument.open<BookmarksFile>(path, { schemaVersion: 1, bookmarks: {} }),
    );
  }

  list(userId: string): readonly BookmarkRecord[] {
    return Object.values(this.doc.data.bookmarks[userId] ?? {});
  }

  put(userId: string, bookmark: BookmarkRecord, max: number): Promise<'saved' | 'too_many'> {
    return this.doc.mutate(
      (data): 'saved' | 'too_many' => {
        const mine = data.bookmarks[userId] ?? {};
        if (!(bookmark.trackId in mine) && Object.keys(mine).length >= max) return 'too_many';
        data.bookmarks[userId] = { ...mine, [bookmark.trackId]: bookmark };
        return 'saved';
      },
      (outcome) => outcome === 'saved',
    );
  }

  remove(userId: string, trackId: string): Promise<boolean> {
    return this.doc.mutate(
      (data) => {
        const mine = data.bookmarks[userId];
        if (!mine || !(trackId in mine)) return false;
        delete mine[trackId];
        if (Object.keys(mine).length === 0) delete data.bookmarks[userId];
        return true;
      },
      (removed) => removed,
    );
  }

  async removeUser(userId: string): Promise<void> {
    await this.doc.dropEntry((data) => data.bookmarks, userId);
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }
}
