import type { RatingResult } from '../contract/ratings.js';
import { accountOf, type Principal } from '../domain/user.js';
import type { RatingKind } from '../domain/rating.js';
import type { LibraryService } from './library-service.js';
import type { RatingsStore } from '../domain/ports.js';

/** Ratings: 0–10 per user (half-stars on a five-star scale); 0 removes the caller's rating. */
export class RatingService {
  constructor(
    private readonly ratings: RatingsStore,
    private readonly library: LibraryService,
  ) {}

  async rate(caller: Principal, kind: RatingKind, id: string, rating: number): Promise<RatingResult> {
    if (kind === 'track') this.library.track(id);
    else if (kind === 'album') this.library.requireAlbum(id);
    else this.library.requireArtist(id);
    await this.ratings.set(kind, id, accountOf(caller), rating);
    return { id, rating };
  }

  /** The ids of the items of a kind that someone rated (whether or not still in the library). */
  ratedByAnyone(kind: RatingKind): string[] {
    return this.ratings.ratedByAnyone(kind);
  }

  /** The caller's rated items of a kind still in the library, the highest first (then the id). */
  highest(caller: Principal, kind: RatingKind): Array<{ id: string; rating: number }> {
    return this.ratings
      .ratedBy(kind, accountOf(caller))
      .filter((item) => this.library.has(kind, item.id))
      .sort((a, b) => b.rating - a.rating || (a.id < b.id ? -1 : 1));
  }
}
