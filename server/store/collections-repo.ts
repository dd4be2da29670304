import type { CollectionKind, CollectionRecord } from '../domain/collection.js';
import type { CollectionsStore } from '../domain/ports.js';
import { JsonDocument, type Versioned } from './json-document.js';

interface CollectionsFile extends Versioned {
  playlists: CollectionRecord[];
  collections: CollectionRecord[];
}

const listOf = (data: CollectionsFile, kind: CollectionKind) =>
  kind === 'playlist' ? data.playlists : data.collections;

/** Playlists and collections (playlists.json). */
export class CollectionsRepo implements CollectionsStore {
  private constructor(private readonly doc: JsonDocument<CollectionsFile>) {}

  static async open(path: string): Promise<CollectionsRepo> {
    return new CollectionsRepo(
      await JsonDocument.open<CollectionsFile>(path, { schemaVersion: 1, playlists: [], collections: [] }),
    );
  }

  list(kind: CollectionKind): readonly CollectionRecord[] {
    return listOf(this.doc.data, kind);
  }

  find(kind: CollectionKind, id: string): CollectionRecord | undefined {
    return listOf(this.doc.data, kind).find((record) => record.id === id);
  }

  add(kind: CollectionKind, record: CollectionRecord): Promise<void> {
    return this.doc.mutate((data) => {
      listOf(data, kind).push(record);
    });
  }

  /** Applies `change` to the record, in the write queue; false when the record is gone. */
  update(kind: CollectionKind, id: string, change: (record: CollectionRecord) => void): Promise<boolean> {
    return this.doc.mutate(
      (data) => {
        const record = listOf(data, kind).find((candidate) => candidate.id === id);
        if (!record) return false;
        change(record);
        return true;
      },
      (found) => found,
    );
  }

  remove(kind: CollectionKind, id: string): Promise<boolean> {
    return this.doc.mutate(
      (data) => {
        const list = listOf(data, kind);
        const at = list.findIndex((record) => record.id === id);
        if (at < 0) return false;
        list.splice(at, 1);
        return true;
      },
      (removed) => removed,
    );
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }
}
