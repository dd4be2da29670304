import type { RatingKind } from '../../server/domain/rating.js';
import type { RatingsStore } from '../../server/domain/ports.js';
import type { RatingSummary } from '../../server/contract/library.js';

/** Ratings in memory, kept and summed as RatingsRepo does: 0 removes, averages to two decimals. */
export class FakeRatingsStore implements RatingsStore {
  /** kind → target id → user id → rating. */
  readonly table: Record<RatingKind, Map<string, Map<string, number>>> = {
    track: new Map(),
    album: new Map(),
    artist: new Map(),
  };

  set(kind: RatingKind, targetId: string, userId: string, rating: number): Promise<void> {
    const byUser = this.table[kind].get(targetId) ?? new Map<string, number>();
    if (rating === 0) byUser.delete(userId);
    else byUser.set(userId, rating);
    if (byUser.size === 0) this.table[kind].delete(targetId);
    else this.table[kind].set(targetId, byUser);
    return Promise.resolve();
  }

  summary(kind: RatingKind, targetId: string, userId: string | null): RatingSummary {
    const byUser = this.table[kind].get(targetId) ?? new Map<string, number>();
    const values = [...byUser.values()];
    const sum = values.reduce((total, value) => total + value, 0);
    return {
      userRating: (userId !== null ? byUser.get(userId) : undefined) ?? null,
      averageRating: values.length === 0 ? null : Math.round((sum / values.length) * 100) / 100,
      ratingCount: values.length,
    };
  }

  ratedBy(kind: RatingKind, userId: string): Array<{ id: string; rating: number }> {
    const rated: Array<{ id: string; rating: number }> = [];
    for (const [id, byUser] of this.table[kind]) {
      const rating = byUser.get(userId);
      if (rating !== undefined) rated.push({ id, rating });
    }
    return rated;
  }

  ratedByAnyone(kind: RatingKind): string[] {
    return [...this.table[kind].keys()];
  }

  removeUser(userId: string): Promise<void> {
    for (const byTarget of Object.values(this.table)) {
      for (const [targetId, byUser] of byTarget) {
        byUser.delete(userId);
        if (byUser.size === 0) byTarget.delete(targetId);
      }
    }
    return Promise.resolve();
  }
}
