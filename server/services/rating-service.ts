import { accountOf, type Principal } from '../domain/user.js';
import type { RatingKind } from '../domain/rating.js';
import type { LibraryService } from './library-service.js';
import type { RatingsStore } from './ports.js';

/** Ratings: 0–10 per user (half-stars on a five-star scale); 0 removes the caller's rating. */
export class RatingService {
  constructor(
    private readonly ratings: RatingsStore,
    private readonly library: LibraryService,
  ) {}

  async rate(
    caller: Principal,
    kind: RatingKind,
    id: string,
    rating: number,
  ): Promise<{ id: string; rating: number }> {
    if (kind === 'track') this.library.track(id);
    else if (kind === 'album') this.library.requireAlbum(id);
    else this.library.requireArtist(id);
    await this.ratings.set(kind, id, accountOf(caller), rating);
    return { id, rating };
  }
}
