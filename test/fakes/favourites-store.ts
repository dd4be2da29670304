import type { FavouriteKind } from '../../server/domain/favourites.js';
import type { FavouritesStore } from '../../server/domain/ports.js';

/** Favourites in memory, kept as FavouritesRepo keeps them: a starred item keeps its first date. */
export class FakeFavouritesStore implements FavouritesStore {
  /** `${userId} ${kind}` → item id → when. */
  readonly table = new Map<string, Map<string, number>>();

  private of(userId: string, kind: FavouriteKind): Map<string, number> {
    const key = `${userId} ${kind}`;
    const items = this.table.get(key) ?? new Map<string, number>();
    this.table.set(key, items);
    return items;
  }

  starredAt(userId: string, kind: FavouriteKind, id: string): number | undefined {
    return this.table.get(`${userId} ${kind}`)?.get(id);
  }

  list(userId: string, kind: FavouriteKind): Readonly<Record<string, number>> {
    return Object.fromEntries(this.table.get(`${userId} ${kind}`) ?? []);
  }

  star(
    userId: string,
    items: ReadonlyArray<{ kind: FavouriteKind; id: string }>,
    at: number,
  ): Promise<boolean> {
    let changed = false;
    for (const { kind, id } of items) {
      const table = this.of(userId, kind);
      if (!table.has(id)) {
        table.set(id, at);
        changed = true;
      }
    }
    return Promise.resolve(changed);
  }

  unstar(userId: string, items: ReadonlyArray<{ kind: FavouriteKind; id: string }>): Promise<boolean> {
    let changed = false;
    for (const { kind, id } of items)
      changed = (this.table.get(`${userId} ${kind}`)?.delete(id) ?? false) || changed;
    return Promise.resolve(changed);
  }

  removeUser(userId: string): Promise<boolean> {
    let changed = false;
    for (const key of [...this.table.keys()]) {
      if (key.startsWith(`${userId} `)) changed = this.table.delete(key) || changed;
    }
    return Promise.resolve(changed);
  }
}
