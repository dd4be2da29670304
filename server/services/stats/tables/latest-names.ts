import { capacityFor, grown } from '../columns/columns.js';
import type { IndexTables } from './index-tables.js';
import type { Lists } from './lists.js';

/** The latest-log tables under the names the saved index (plays.index) has always used. */
export interface SavedLatest {
  trackLatestUser: Int32Array;
  trackLatestAt: Float64Array;
  albumNameIdx: Int32Array;
  albumNameAt: Float64Array;
  artistNameIdx: Int32Array;
  artistNameAt: Float64Array;
}

/**
 * What the newest log says about each track, album and artist, for names once they are gone from
 * the library: the user and time of a track's newest log (its entry is found from those), and the
 * newest non-empty snapshot name of an album or artist. Each is a pair of columns, a time and a
 * value, indexed by the interned id; -Infinity and -1 mean "none yet".
 */
export class LatestNames {
  private trackUser = new Int32Array(0);
  private trackAt = new Float64Array(0);
  private albumName = new Int32Array(0);
  private albumAt = new Float64Array(0);
  private artistName = new Int32Array(0);
  private artistAt = new Float64Array(0);

  /** Empty, with room for every track, album and artist the tables hold (all of them noted next). */
  static sizedFor({
    tracks,
    albums,
    artists,
  }: Pick<IndexTables, 'tracks' | 'albums' | 'artists'>): LatestNames {
    const latest = new LatestNames();
    latest.trackAt = new Float64Array(tracks.count).fill(-Infinity);
    latest.trackUser = new Int32Array(tracks.count).fill(-1);
    latest.albumAt = new Float64Array(albums.count).fill(-Infinity);
    latest.albumName = new Int32Array(albums.count).fill(-1);
    latest.artistAt = new Float64Array(artists.count).fill(-Infinity);
    latest.artistName = new Int32Array(artists.count).fill(-1);
    return latest;
  }

  static fromSaved(saved: SavedLatest): LatestNames {
    return Object.assign(Object.create(LatestNames.prototype) as LatestNames, {
      trackUser: saved.trackLatestUser,
      trackAt: saved.trackLatestAt,
      albumName: saved.albumNameIdx,
      albumAt: saved.albumNameAt,
      artistName: saved.artistNameIdx,
      artistAt: saved.artistNameAt,
    });
  }

  saved(): SavedLatest {
    return {
      trackLatestUser: this.trackUser,
      trackLatestAt: this.trackAt,
      albumNameIdx: this.albumName,
      albumNameAt: this.albumAt,
      artistNameIdx: this.artistName,
      artistNameAt: this.artistAt,
    };
  }

  /**
   * Records a log at `at` of snapshot `s`, whose artists are list `s` of `artistIdxs` and their
   * names list `s` of `artistNames`; `albumName` and those names index `names`, and an empty name is
   * not recorded (it would hide an older real one).
   */
  note(
    names: string[],
    userIdx: number,
    trackIdx: number,
    albumIdx: number,
    albumName: number,
    artistIdxs: Lists,
    artistNames: Lists,
    s: number,
    at: number,
  ): void {
    if (trackIdx >= this.trackAt.length)
      [this.trackAt, this.trackUser] = grownLatest(this.trackAt, this.trackUser, trackIdx);
    keepLatest(this.trackAt, this.trackUser, trackIdx, at, userIdx);
    if (albumIdx >= 0 && albumName >= 0 && names[albumName] !== '') {
      if (albumIdx >= this.albumAt.length)
        [this.albumAt, this.albumName] = grownLatest(this.albumAt, this.albumName, albumIdx);
      keepLatest(this.albumAt, this.albumName, albumIdx, at, albumName);
    }
    // List `s` of each, read in place: a start notes every snapshot, and arrays of them were garbage.
    const ids = artistIdxs.values;
    const named = artistNames.values;
    for (
      let i = artistIdxs.start[s]!, n = artistNames.start[s]!;
      i < artistIdxs.start[s + 1]!;
      i += 1, n += 1
    ) {
      const artistIdx = ids[i]!;
      const name = named[n]!;
      if (names[name] === '') continue;
      if (artistIdx >= this.artistAt.length)
        [this.artistAt, this.artistName] = grownLatest(this.artistAt, this.artistName, artistIdx);
      keepLatest(this.artistAt, this.artistName, artistIdx, at, name);
    }
  }

  /** The user of the track's newest log (-1 if none; only for a track that has logs). */
  trackUserOf(trackIdx: number): number {
    return this.trackUser[trackIdx]!;
  }

  /** The time of the track's newest log (only for a track that has logs). */
  trackAtOf(trackIdx: number): number {
    return this.trackAt[trackIdx]!;
  }

  /** The newest non-empty name of an album or artist, as an index into the names; -1 for none. */
  nameOf(kind: 'album' | 'artist', idx: number): number {
    const names = kind === 'album' ? this.albumName : this.artistName;
    return idx < names.length ? names[idx]! : -1;
  }
}

/** A latest-wins pair of columns grown to hold index `idx`; new slots read "none yet". */
function grownLatest<T extends Float64Array, V extends Int32Array>(times: T, values: V, idx: number): [T, V] {
  const old = times.length;
  const cap = capacityFor(idx + 1, old);
  return [grown(times, cap).fill(-Infinity, old), grown(values, cap).fill(-1, old)];
}

/** Stores `value` at `idx` of a latest-wins pair unless a later log is there already. */
function keepLatest(times: Float64Array, values: Int32Array, idx: number, at: number, value: number): void {
  if (at >= times[idx]!) {
    times[idx] = at;
    values[idx] = value;
  }
}
