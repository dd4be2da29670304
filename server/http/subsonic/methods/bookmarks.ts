import { isoUtc } from '../../../clock.js';
import type { Services } from '../../../services/create-services.js';
import { callerOf, type MethodRequest } from '../types.js';

/** Bookmarks: a saved position in a track, per user, to resume an audiobook or a long mix anywhere. */
export function bookmarkMethods(services: Services) {
  const { bookmarks, library } = services;
  return {
    getBookmarks: (request: MethodRequest) => {
      const caller = callerOf(request);
      return {
        bookmarks: {
          bookmark: bookmarks.list(caller).map((bookmark) => ({
            position: bookmark.positionMs,
            username: caller.username,
            comment: bookmark.comment ?? undefined,
            created: isoUtc(bookmark.createdAt),
            changed: isoUtc(bookmark.changedAt),
            entry: request.present.song(library.track(bookmark.trackId)),
          })),
        },
      };
    },

    createBookmark: async (request: MethodRequest) => {
      const { params } = request;
      await bookmarks.save(callerOf(request), {
        trackId: params.required('id'),
        positionMs: params.requiredInt('position', 0, Number.MAX_SAFE_INTEGER),
        comment: params.string('comment') ?? null,
      });
      return {};
    },

    deleteBookmark: async (request: MethodRequest) => {
      await bookmarks.delete(callerOf(request), request.params.required('id'));
      return {};
    },
  };
}
