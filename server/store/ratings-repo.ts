import type { RatingSummary } from '../contract/library.js';
import type { RatingKind } from '../domain/rating.js';
import type { RatingsStore } from '../domain/ports.js';
import { JsonDocument, type Versioned } from './json-document.js';

/** kind → target id → user id → rating (1–10). */
type RatingTable = Record<RatingKind, Record<string, Record<string, number>>>;

interface RatingsFile extends Versioned {
  ratings: RatingTable;
}

/** Per-user ratings of tracks, albums and artists (ratings.json). */
export class RatingsRepo implements RatingsStore {
  private constructor(private readonly doc: JsonDocument<RatingsFile>) {}

  static async open(path: string): Promise<RatingsRepo> {
    return new RatingsRepo(
      await JsonDocument.open<RatingsFile>(path, {
        schemaVersion: 1,
        ratings: { track: {}, album: {}, artist: {} },
      }),
    );
  }

  /** Sets the user's rating; 0 removes it. */
  set(kind: RatingKind, targetId: string, userId: string, rating: number): Promise<void> {
    return this.doc.mutate((data) => {
      const byUser = (data.ratings[kind][targetId] ??= {});
      if (rating === 0) delete byUser[userId];
      else byUser[userId] = rating;
      if (Object.keys(byUser).length === 0) delete data.ratings[kind][targetId];
    });
  }

  summary(kind: RatingKind, targetId: string, userId: string | null): RatingSummary {
    const byUser = this.doc.data.ratings[kind][targetId];
    // Most items are rated by nobody: a full sync asks this of every track.
    if (byUser === undefined) return { userRating: null, averageRating: null, ratingCount: 0 };
    const values = Object.values(byUser);
    const sum = values.reduce((total, value) => total + value, 0);
    return {
      userRating: (userId !== null ? byUser[userId] : undefined) ?? null,
      averageRating: values.length === 0 ? null : Math.round((sum / values.length) * 100) / 100,
      ratingCount: values.length,
    };
  }

  /** Every item of a kind the user rated, with the rating. */
  ratedBy(kind: RatingKind, userId: string): Array<{ id: string; rating: number }> {
    const rated: Array<{ id: string; rating: number }> = [];
    for (const [id, byUser] of Object.entries(this.doc.data.ratings[kind])) {
      const rating = byUser[userId];
      if (rating !== undefined) rated.push({ id, rating });
    }
    return rated;
  }

  ratedByAnyone(kind: RatingKind): string[] {
    return Object.keys(this.doc.data.ratings[kind]);
  }

  /** Drops every rating of a user (when the account is deleted). */
  removeUser(userId: string): Promise<void> {
    return this.doc.mutate((data) => {
      for (const table of Object.values(data.ratings)) {
        for (const [targetId, byUser] of Object.entries(table)) {
          delete byUser[userId];
          if (Object.keys(byUser).length === 0) delete table[targetId];
        }
      }
    });
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }
}
