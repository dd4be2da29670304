import { z } from 'zod';
import type { RatingService } from '../../services/rating-service.js';
import type { StatsService } from '../../services/stats/stats-service.js';
import type { RatingKind } from '../../store/ratings-repo.js';
import { integer, isoDate, paging, parseParams, text } from '../params.js';
import { callerOf, ok, type Request } from '../types.js';

// Ids longer than 64 characters are not 400s but 404s of the resource (contract §0), so they are
// read as text here and judged by the service.
const anyId = text(1024);
const device = text(128).optional();

const logParams = { id: anyId, device, dateTime: isoDate().optional() };
const subject = { userId: anyId.optional(), device, ...paging };
const ranged = { ...subject, ltDateTime: isoDate().optional(), gtDateTime: isoDate().optional() };

export function statsHandlers(stats: StatsService) {
  const top = (kind: 'tracks' | 'albums' | 'artists' | 'genres') => (request: Request) =>
    ok(stats.top(callerOf(request), kind, parseParams(ranged, request.params)));
  const recent = (kind: 'tracks' | 'albums' | 'artists') => (request: Request) =>
    ok(stats.recent(callerOf(request), kind, parseParams(subject, request.params)));
  return {
    logPlay: async (request: Request) =>
      ok(await stats.log(callerOf(request), 'play', parseParams(logParams, request.params))),
    logSkip: async (request: Request) =>
      ok(await stats.log(callerOf(request), 'skip', parseParams(logParams, request.params))),
    listeningTime: (request: Request) =>
      ok(stats.listeningTime(callerOf(request), parseParams(ranged, request.params))),
    topTracks: top('tracks'),
    topAlbums: top('albums'),
    topArtists: top('artists'),
    topGenres: top('genres'),
    recentTracks: recent('tracks'),
    recentAlbums: recent('albums'),
    recentArtists: recent('artists'),
    activity: (request: Request) =>
      ok(
        stats.activity(
          callerOf(request),
          parseParams(
            {
              ...ranged,
              step: z.enum(['day', 'week', 'month'], { error: 'must be day, week or month' }).default('day'),
            },
            request.params,
          ),
        ),
      ),
  };
}

export function ratingHandlers(ratings: RatingService) {
  const rate = (kind: RatingKind) => async (request: Request) => {
    const { id, rating } = parseParams({ id: anyId, rating: integer(0, 10) }, request.params);
    return ok(await ratings.rate(callerOf(request), kind, id, rating));
  };
  return { rateTrack: rate('track'), rateAlbum: rate('album'), rateArtist: rate('artist') };
}
