import { plainTrack, type ArtworkInfo, type TrackRecord } from '../domain/library.js';
import type { TrackColumns } from './track-columns.js';

/**
 * One row of TrackColumns seen as a TrackRecord: its fields are getters over the columns, so the
 * object itself is two fields. Read-only: a change is a new record put in the store. A spread or
 * `Object.keys` sees no fields (they are on the prototype): copy one with `plainTrack`. JSON.stringify
 * writes the record's fields, as for a plain record.
 */
export class ColumnTrack implements TrackRecord {
  readonly #columns: TrackColumns;
  readonly #row: number;

  constructor(columns: TrackColumns, row: number) {
    this.#columns = columns;
    this.#row = row;
  }

  get id(): string {
    return this.#columns.id(this.#row);
  }

  get path(): string {
    return this.#columns.path(this.#row);
  }

  get size(): number {
    return this.#columns.size(this.#row);
  }

  get mtimeMs(): number {
    return this.#columns.mtimeMs(this.#row);
  }

  get dev(): number | undefined {
    return this.#columns.dev(this.#row);
  }

  get ino(): number | undefined {
    return this.#columns.ino(this.#row);
  }

  get name(): string {
    return this.#columns.name(this.#row);
  }

  get artist(): string | undefined {
    return this.#columns.artist(this.#row);
  }

  get albumId(): string | null {
    return this.#columns.albumId(this.#row);
  }

  get artistIds(): string[] {
    return this.#columns.artistIds(this.#row);
  }

  get genres(): string[] {
    return this.#columns.genres(this.#row);
  }

  get durationMs(): number {
    return this.#columns.durationMs(this.#row);
  }

  get trackNumber(): number | null {
    return this.#columns.whole(this.#row, 0);
  }

  get discNumber(): number | null {
    return this.#columns.whole(this.#row, 1);
  }

  get year(): number | null {
    return this.#columns.whole(this.#row, 2);
  }

  get format(): string {
    return this.#columns.format(this.#row);
  }

  get artwork(): ArtworkInfo[] {
    return this.#columns.artwork(this.#row);
  }

  get recordingMbid(): string | undefined {
    return this.#columns.recordingMbid(this.#row);
  }

  get releaseMbid(): string | undefined {
    return this.#columns.releaseMbid(this.#row);
  }

  get artistMbids(): string[] | undefined {
    return this.#columns.artistMbids(this.#row);
  }

  /** Whether `id` is this track's, without making its id (a lookup by id asks each it meets). */
  hasId(id: string): boolean {
    return this.#columns.hasId(this.#row, id);
  }

  /** textHash of the track's id, without making it (a table of ids is built from them). */
  idHash(): number {
    return this.#columns.idHash(this.#row);
  }

  toJSON(): TrackRecord {
    return plainTrack(this);
  }
}
