import type { FavouriteKind } from '../domain/favourites.js';
import { JsonDocument, type Versioned } from './json-document.js';

/** user id → kind → item id → when it was starred (epoch ms). */
type FavouriteTable = Record<string, Record<FavouriteKind, Record<string, number>>>;

interface FavouritesFile extends Versioned {
  favourites: FavouriteTable;
}

const empty = (): Record<FavouriteKind, Record<string, number>> => ({ track: {}, album: {}, artist: {} });

/** Each user's starred tracks, albums and artists (favourites.json). */
export class FavouritesRepo {
  private constructor(private readonly doc: JsonDocument<FavouritesFile>) {}

  static async open(path: string): Promise<FavouritesRepo> {
    return new FavouritesRepo(
      await JsonDocument.open<FavouritesFile>(path, { schemaVersion: 1, favourites: {} }),
    );
  }

  /** When the user starred the item, or undefined. */
  starredAt(userId: string, kind: FavouriteKind, id: string): number | undefined {
    return this.doc.data.favourites[userId]?.[kind][id];
  }

  /** The user's starred items of a kind, id → when. */
  list(userId: string, kind: FavouriteKind): Readonly<Record<string, number>> {
    return this.doc.data.favourites[userId]?.[kind] ?? {};
  }

  /** Stars every item not starred yet (a starred item keeps its first date); writes only on a change. */
  star(
    userId: string,
    items: ReadonlyArray<{ kind: FavouriteKind; id: string }>,
    at: number,
  ): Promise<boolean> {
    return this.doc.mutate(
      (data) => {
        let changed = false;
        for (const { kind, id } of items) {
          const table = (data.favourites[userId] ??= empty())[kind];
          if (table[id] === undefined) {
            table[id] = at;
            changed = true;
          }
        }
        return changed;
      },
      (changed) => changed,
    );
  }

  unstar(userId: string, items: ReadonlyArray<{ kind: FavouriteKind; id: string }>): Promise<boolean> {
    return this.doc.mutate(
      (data) => {
        const mine = data.favourites[userId];
        let changed = false;
        for (const { kind, id } of items) {
          if (mine?.[kind][id] !== undefined) {
            delete mine[kind][id];
            changed = true;
          }
        }
        return changed;
      },
      (changed) => changed,
    );
  }

  /** Drops a user's favourites (when the account is deleted). */
  removeUser(userId: string): Promise<boolean> {
    return this.doc.dropEntry((data) => data.favourites, userId);
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }
}
