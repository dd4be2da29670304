import { DeviceKeys } from './devices.js';
import { GenreGroups } from './genres.js';
import { Interner } from './interner.js';
import { SnapshotTable } from './snapshots.js';
import type { Kind } from '../sums/tally.js';

/**
 * The index's tables: strings interned to small integers (users, tracks, albums, artists, snapshot
 * names, genres, devices) and the snapshots numbered once (snapshots.ts). Rows refer to them by index.
 */
export class IndexTables {
  readonly users = new Interner();
  readonly tracks = new Interner();
  readonly albums = new Interner();
  readonly artists = new Interner();
  /** Snapshot names of tracks, albums and artists. */
  readonly names = new Interner();
  readonly genres = new GenreGroups();
  readonly devices = new DeviceKeys();
  readonly snapshots = new SnapshotTable({
    tracks: this.tracks,
    albums: this.albums,
    artists: this.artists,
    names: this.names,
    genres: this.genres,
  });

  /**
   * Puts the strings a saved index added in the interners' look-ups (Interner.addSaved), `perStep`
   * a step; false if one came twice.
   */
  *indexInSteps(perStep: number): Generator<void, boolean> {
    let distinct = true;
    for (const interner of [this.tracks, this.albums, this.artists, this.names])
      distinct = (yield* interner.indexInSteps(perStep)) && distinct;
    return distinct;
  }

  /** As `indexInSteps`, for the ids only (tracks, albums, artists): what reads look up. */
  *indexIdsInSteps(perStep: number): Generator<void, boolean> {
    let distinct = true;
    for (const interner of [this.tracks, this.albums, this.artists])
      distinct = (yield* interner.indexInSteps(perStep)) && distinct;
    return distinct;
  }

  /** The ids of a kind's items, by interned index. */
  idsOf(kind: Kind): string[] {
    switch (kind) {
      case 'tracks':
        return this.tracks.values;
      case 'albums':
        return this.albums.values;
      case 'artists':
        return this.artists.values;
      case 'genres':
        return this.genres.keys.values;
    }
  }
}
