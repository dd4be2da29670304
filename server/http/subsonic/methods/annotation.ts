import { accountOf } from '../../../domain/user.js';
import type { FavouriteRef } from '../../../services/favourites-service.js';
import type { Services } from '../../../services/create-services.js';
import { missingParameter, notFoundError, SubsonicError, SUBSONIC_CODES } from '../errors.js';
import { callerOf, type MethodRequest } from '../types.js';

/** ListenBrainz's floor for a listen's time: the day of the first scrobble. */
const FIRST_SCROBBLE_MS = Date.UTC(2002, 9, 1);

export function annotationMethods(services: Services) {
  const { library } = services;

  /** What an id names: Subsonic's `id` may be a song, an album or an artist. */
  function kindOf(id: string): FavouriteRef['kind'] {
    if (library.hasTrack(id)) return 'track';
    if (library.has('album', id)) return 'album';
    if (library.has('artist', id)) return 'artist';
    throw notFoundError(`Item '${id}' not found`);
  }

  function starTargets(request: MethodRequest): FavouriteRef[] {
    const { params } = request;
    return [
      ...params.list('id').map((id) => ({ kind: kindOf(id), id })),
      ...params.list('albumId').map((id) => ({ kind: 'album' as const, id })),
      ...params.list('artistId').map((id) => ({ kind: 'artist' as const, id })),
    ];
  }

  return {
    /**
     * `submission=true` (the default) logs a play of each `id` exactly like log-play, at its `time`
     * when given (ms), with the client's name `c` as the device; `submission=false` says what is
     * playing now. Every id is checked before anything is logged.
     */
    scrobble: async (request: MethodRequest) => {
      const caller = callerOf(request);
      const userId = accountOf(caller);
      const { params } = request;
      const ids = params.list('id');
      if (ids.length === 0) throw missingParameter('id');
      const times = params.intList('time', 0, Number.MAX_SAFE_INTEGER);
      if (times.length > 0 && times.length !== ids.length)
        throw new SubsonicError(SUBSONIC_CODES.generic, "Give one 'time' per 'id', or none");
      // A time in seconds instead of milliseconds would be a play in January 1970.
      if (times.some((time) => time < FIRST_SCROBBLE_MS))
        throw new SubsonicError(
          SUBSONIC_CODES.generic,
          "'time' is in milliseconds since 1970 and may not be before 2002-10-01 (the first scrobble)",
        );
      const tracks = ids.map((id) => library.track(id));
      if (!params.bool('submission', true)) {
        const track = tracks[tracks.length - 1]!;
        services.nowPlaying.announce(userId, track.id, request.client, track.durationMs);
        return {};
      }
      for (const [i, track] of tracks.entries()) {
        await services.stats.log(caller, 'play', {
          id: track.id,
          device: request.client ?? undefined,
          dateTime: times[i],
        });
        services.nowPlaying.clear(userId, track.id);
      }
      return {};
    },

    /** Subsonic's 0–5 stars are Melon's 0–10 halves: stored as twice the stars. */
    setRating: async (request: MethodRequest) => {
      const { params } = request;
      const id = params.required('id');
      const rating = params.requiredInt('rating', 0, 5);
      const kind = kindOf(id);
      await services.ratings.rate(callerOf(request), kind, id, rating * 2);
      return {};
    },

    star: async (request: MethodRequest) => {
      await services.favourites.star(callerOf(request), starTargets(request));
      return {};
    },

    unstar: async (request: MethodRequest) => {
      const { params } = request;
      const items: FavouriteRef[] = [
        // An id no longer in the library is unstarred from every kind.
        ...params
          .list('id')
          .flatMap((id) => (['track', 'album', 'artist'] as const).map((kind) => ({ kind, id }))),
        ...params.list('albumId').map((id) => ({ kind: 'album' as const, id })),
        ...params.list('artistId').map((id) => ({ kind: 'artist' as const, id })),
      ];
      await services.favourites.unstar(callerOf(request), items);
      return {};
    },
  };
}
