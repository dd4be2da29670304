import type { Clock } from '../clock.js';
import type { FavouriteKind } from '../domain/favourites.js';
import { accountOf, type Principal } from '../domain/user.js';
import type { FavouritesStore } from '../domain/ports.js';
import type { LibraryService } from './library-service.js';

export interface FavouriteRef {
  kind: FavouriteKind;
  id: string;
}

/** Favourites ("starred" in Subsonic): each user's own set of tracks, albums and artists. */
export class FavouritesService {
  constructor(
    private readonly favourites: FavouritesStore,
    private readonly library: LibraryService,
    private readonly clock: Clock,
  ) {}

  /** Stars every item; each must exist (404 of the first that does not, and nothing is starred). */
  async star(caller: Principal, items: readonly FavouriteRef[]): Promise<void> {
    const userId = accountOf(caller);
    for (const item of items) this.requireItem(item);
    await this.favourites.star(userId, items, this.clock.now());
  }

  /** Unstars every item; an item that is gone from the library can still be unstarred. */
  async unstar(caller: Principal, items: readonly FavouriteRef[]): Promise<void> {
    await this.favourites.unstar(accountOf(caller), items);
  }

  /** When the caller starred the item (epoch ms), or null. */
  starredAt(caller: Principal, kind: FavouriteKind, id: string): number | null {
    return caller.userId === null ? null : (this.favourites.starredAt(caller.userId, kind, id) ?? null);
  }

  /** The caller's favourites of a kind still in the library, the latest starred first. */
  list(caller: Principal, kind: FavouriteKind): Array<{ id: string; starredAt: number }> {
    return Object.entries(this.favourites.list(accountOf(caller), kind))
      .filter(([id]) => this.library.has(kind, id))
      .map(([id, starredAt]) => ({ id, starredAt }))
      .sort((a, b) => b.starredAt - a.starredAt || (a.id < b.id ? -1 : 1));
  }

  private requireItem({ kind, id }: FavouriteRef): void {
    if (kind === 'track') this.library.track(id);
    else if (kind === 'album') this.library.requireAlbum(id);
    else this.library.requireArtist(id);
  }
}
