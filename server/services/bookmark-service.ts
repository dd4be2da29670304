import type { Clock } from '../clock.js';
import type { BookmarkRecord } from '../domain/bookmark.js';
import type { BookmarksStore } from '../domain/ports.js';
import { accountOf, type Principal } from '../domain/user.js';
import { conflict, invalidParameter } from '../errors.js';
import type { LibraryService } from './library-service.js';

/** The most bookmarks one account keeps, so one member's client cannot grow the file without end. */
export const MAX_BOOKMARKS = 1000;
/** The longest bookmark comment, in characters. */
export const MAX_BOOKMARK_COMMENT = 1000;

/**
 * Each user's bookmarks: one per track, a position and a comment, so an audiobook or a long mix
 * resumes where it was left, on any device (Subsonic's createBookmark, getBookmarks, deleteBookmark).
 */
export class BookmarkService {
  constructor(
    private readonly bookmarks: BookmarksStore,
    private readonly library: LibraryService,
    private readonly clock: Clock,
  ) {}

  /** The caller's bookmarks of tracks still in the library, most recently changed first. */
  list(caller: Principal): BookmarkRecord[] {
    return this.bookmarks
      .list(accountOf(caller))
      .filter((bookmark) => this.library.hasTrack(bookmark.trackId))
      .sort((a, b) => b.changedAt - a.changedAt);
  }

  /** Creates or moves the caller's bookmark in a track of the library. */
  async save(
    caller: Principal,
    request: { trackId: string; positionMs: number; comment: string | null },
  ): Promise<void> {
    const userId = accountOf(caller);
    this.library.track(request.trackId);
    if (request.comment !== null && request.comment.length > MAX_BOOKMARK_COMMENT)
      throw invalidParameter(
        'comment',
        `A bookmark's comment has at most ${MAX_BOOKMARK_COMMENT} characters`,
      );
    const now = this.clock.now();
    const earlier = this.bookmarks.list(userId).find((bookmark) => bookmark.trackId === request.trackId);
    const outcome = await this.bookmarks.put(
      userId,
      {
        trackId: request.trackId,
        positionMs: request.positionMs,
        comment: request.comment === '' ? null : request.comment,
        createdAt: earlier?.createdAt ?? now,
        changedAt: now,
      },
      MAX_BOOKMARKS,
    );
    if (outcome === 'too_many')
      throw conflict('too_many_bookmarks', `An account keeps at most ${MAX_BOOKMARKS} bookmarks`);
  }

  /** Removes the caller's bookmark in a track; none there is not an error (the result is the same). */
  async delete(caller: Principal, trackId: string): Promise<void> {
    await this.bookmarks.remove(accountOf(caller), trackId);
  }
}
