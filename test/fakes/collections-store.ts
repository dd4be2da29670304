import type { CollectionKind, CollectionRecord } from '../../server/domain/collection.js';
import type { CollectionsStore } from '../../server/domain/ports.js';

/** Playlists and collections in memory, in the order they were added (as CollectionsRepo keeps them). */
export class FakeCollectionsStore implements CollectionsStore {
  readonly records: Record<CollectionKind, CollectionRecord[]> = { playlist: [], collection: [] };

  list(kind: CollectionKind): readonly CollectionRecord[] {
    return this.records[kind];
  }

  find(kind: CollectionKind, id: string): CollectionRecord | undefined {
    return this.records[kind].find((record) => record.id === id);
  }

  add(kind: CollectionKind, record: CollectionRecord): Promise<void> {
    this.records[kind].push(record);
    return Promise.resolve();
  }

  update(kind: CollectionKind, id: string, change: (record: CollectionRecord) => void): Promise<boolean> {
    const record = this.find(kind, id);
    if (record) change(record);
    return Promise.resolve(record !== undefined);
  }

  remove(kind: CollectionKind, id: string): Promise<boolean> {
    const at = this.records[kind].findIndex((record) => record.id === id);
    if (at >= 0) this.records[kind].splice(at, 1);
    return Promise.resolve(at >= 0);
  }
}
