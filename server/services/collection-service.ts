import type { Page } from '../contract/common.js';
import type { Collection } from '../contract/collections.js';
import { newCollectionId, isValidId } from '../domain/ids.js';
import type { Clock } from '../clock.js';
import type { Principal } from '../domain/user.js';
import { forbidden, invalidParameter, notFound } from '../errors.js';
import type { CollectionKind, CollectionRecord } from '../domain/collection.js';
import type { LibraryService } from './library-service.js';
import { pageOf, type ListQuery } from './paging.js';
import type { ArtworkStore, CollectionsStore } from '../domain/ports.js';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Playlists and collections: made by Admins and Users, readable by every signed-in role. */
export class CollectionService {
  constructor(
    private readonly collections: CollectionsStore,
    private readonly artwork: ArtworkStore,
    private readonly library: LibraryService,
    private readonly clock: Clock,
  ) {}

  async create(
    kind: CollectionKind,
    caller: Principal,
    request: { name: string; description?: string | undefined; trackIds?: string[] | undefined },
  ): Promise<Collection> {
    const trackIds = request.trackIds ?? [];
    const unknown = trackIds.find((trackId) => !this.library.hasTrack(trackId));
    if (unknown !== undefined) throw invalidParameter('trackIds', `Track '${unknown}' not found`);
    const record: CollectionRecord = {
      id: newCollectionId(),
      name: request.name,
      description: request.description ?? null,
      trackIds,
      owner: caller.userId ?? '',
      createdAt: this.clock.now(),
    };
    await this.collections.add(kind, record);
    return this.view(kind, record);
  }

  /**
   * Changes a playlist or collection: its name, description, tracks added at the end and tracks
   * removed by position (positions in the list before this change). Only its owner or an Admin may.
   */
  async update(
    kind: CollectionKind,
    caller: Principal,
    id: string,
    request: {
      name?: string | undefined;
      description?: string | undefined;
      addTrackIds?: string[] | undefined;
      removePositions?: number[] | undefined;
    },
  ): Promise<Collection> {
    this.requireOwner(kind, caller, id);
    const unknown = (request.addTrackIds ?? []).find((trackId) => !this.library.hasTrack(trackId));
    if (unknown !== undefined) throw invalidParameter('trackIds', `Track '${unknown}' not found`);
    const found = await this.collections.update(kind, id, (record) => {
      const remove = new Set(request.removePositions ?? []);
      record.trackIds = record.trackIds.filter((_, position) => !remove.has(position));
      record.trackIds.push(...(request.addTrackIds ?? []));
      if (request.name !== undefined) record.name = request.name;
      if (request.description !== undefined) record.description = request.description;
      // Apps such as DSub fetch a playlist again only when `changed` moves.
      record.changedAt = Math.max(this.clock.now(), record.createdAt);
    });
    if (!found) throw this.missing(kind, id);
    return this.get(kind, id);
  }

  /** Deletes a playlist or collection (its owner or an Admin). */
  async delete(kind: CollectionKind, caller: Principal, id: string): Promise<void> {
    this.requireOwner(kind, caller, id);
    if (!(await this.collections.remove(kind, id))) throw this.missing(kind, id);
  }

  private requireOwner(kind: CollectionKind, caller: Principal, id: string): void {
    const record = this.require(kind, id);
    if (caller.role !== 'Admin' && record.owner !== caller.userId)
      throw forbidden('not_owner', `Only the owner of this ${kind} or an Admin may change it`);
  }

  list(kind: CollectionKind, query: ListQuery): Page<Collection> {
    const needle = query.q?.toLocaleLowerCase('en');
    const all = this.collections
      .list(kind)
      .filter((record) => !needle || record.name.toLocaleLowerCase('en').includes(needle))
      .sort((a, b) => collator.compare(a.name, b.name) || a.id.localeCompare(b.id));
    return pageOf(all, query, (record) => this.view(kind, record));
  }

  get(kind: CollectionKind, id: string): Collection {
    return this.view(kind, this.require(kind, id));
  }

  /** When the playlist or collection was made (epoch ms). */
  createdAt(kind: CollectionKind, id: string): number {
    return this.require(kind, id).createdAt;
  }

  /** When it last changed (epoch ms): its making, or its latest update. */
  changedAt(kind: CollectionKind, id: string): number {
    const record = this.require(kind, id);
    return record.changedAt ?? record.createdAt;
  }

  require(kind: CollectionKind, id: string): CollectionRecord {
    const record = isValidId(id) ? this.collections.find(kind, id) : undefined;
    if (!record) throw this.missing(kind, id);
    return record;
  }

  private missing(kind: CollectionKind, id: string) {
    return notFound(
      `${kind}_not_found`,
      `${kind === 'playlist' ? 'Playlist' : 'Collection'} '${id}' not found`,
    );
  }

  private view(kind: CollectionKind, record: CollectionRecord): Collection {
    return {
      id: record.id,
      name: record.name,
      description: record.description,
      trackIds: record.trackIds,
      owner: record.owner,
      hasArtwork: this.artwork.single(kind, record.id) !== undefined,
    };
  }
}
