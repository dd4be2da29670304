import { ratingResultSchema } from '../../../contract/ratings.js';
import type { RatingService } from '../../../services/rating-service.js';
import type { RatingKind } from '../../../domain/rating.js';
import { id, integer } from '../../params.js';
import { callerOf, endpoint } from '../../endpoint.js';

const anyId = id();

export function ratingHandlers(ratings: RatingService) {
  const rate = (kind: RatingKind) =>
    endpoint({
      summary: `Rate ${kind === 'track' ? 'a track' : kind === 'album' ? 'an album' : 'an artist'}`,
      params: {
        id: anyId,
        rating: integer(0, 10).meta({ description: "0–10 (half stars); 0 removes the caller's rating" }),
      },
      response: ratingResultSchema,
      errors: { 404: [`${kind}_not_found`] },
      handle: ({ params, request }) => ratings.rate(callerOf(request), kind, params.id, params.rating),
    });
  return { rateTrack: rate('track'), rateAlbum: rate('album'), rateArtist: rate('artist') };
}
