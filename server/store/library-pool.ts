import type { AlbumRecord, ArtistRecord, ArtworkInfo, TrackRecord } from '../domain/library.js';

/**
 * Makes the library's records small in memory. JSON.parse and the scanner make a new string for
 * every field of every record, and a new array for every genre list, artist list and picture list,
 * though most of them repeat: an album's ten tracks share its id, artists, genres, format and usually
 * its cover. The pool keeps one copy of each repeated string and one frozen copy of each repeated
 * list, and rebuilds each record with all its fields in one literal, so V8 keeps them inside the
 * object instead of in a separate property store.
 *
 * Shared lists are frozen: a change to one would change every record holding it, so none may
 * change (nothing in Melon changes a record's lists in place; a change makes a new record).
 */
export class LibraryPool {
  private readonly strings = new Map<string, string>();
  private readonly lists = new Map<string, readonly string[]>();
  private readonly pictures = new Map<string, readonly ArtworkInfo[]>();

  /** The pool's copy of a string that repeats across records. */
  string(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  /** The pool's frozen copy of a list of repeated strings (genres, artist ids). */
  list(values: readonly string[]): string[] {
    if (values.length === 0) return EMPTY as string[];
    const key = values.join('\u0000');
    let known = this.lists.get(key);
    if (!known) {
      known = Object.freeze(values.map((value) => this.string(value)));
      this.lists.set(key, known);
    }
    return known as string[];
  }

  /** The pool's frozen copy of a track's picture list (an album's tracks mostly share one cover). */
  artwork(values: readonly ArtworkInfo[]): ArtworkInfo[] {
    if (values.length === 0) return EMPTY_ARTWORK as ArtworkInfo[];
    const key = JSON.stringify(values);
    let known = this.pictures.get(key);
    if (!known) {
      known = Object.freeze(
        values.map((picture) =>
          Object.freeze({ ...picture, type: this.string(picture.type), mime: this.string(picture.mime) }),
        ),
      );
      this.pictures.set(key, known);
    }
    return known as ArtworkInfo[];
  }

  /** The record with its repeated parts shared; its own fields (id, path, name) as given. */
  track(raw: TrackRecord): TrackRecord {
    const { recordingMbid, releaseMbid, artistMbids } = raw;
    // One literal per usual shape: every field in the object itself. A record an older Melon made
    // (without dev, ino or artist) keeps exactly the fields it had.
    const track: TrackRecord =
      raw.dev !== undefined && raw.ino !== undefined && raw.artist !== undefined
        ? {
            id: raw.id,
            path: raw.path,
            size: raw.size,
            mtimeMs: raw.mtimeMs,
            dev: raw.dev,
            ino: raw.ino,
            name: raw.name,
            artist: this.string(raw.artist),
            albumId: raw.albumId === null ? null : this.string(raw.albumId),
            artistIds: this.list(raw.artistIds),
            genres: this.list(raw.genres),
            durationMs: raw.durationMs,
            trackNumber: raw.trackNumber,
            discNumber: raw.discNumber,
            year: raw.year,
            format: this.string(raw.format),
            artwork: this.artwork(raw.artwork),
          }
        : {
            ...raw,
            ...(raw.artist === undefined ? {} : { artist: this.string(raw.artist) }),
            albumId: raw.albumId === null ? null : this.string(raw.albumId),
            artistIds: this.list(raw.artistIds),
            genres: this.list(raw.genres),
            format: this.string(raw.format),
            artwork: this.artwork(raw.artwork),
          };
    if (recordingMbid !== undefined) track.recordingMbid = recordingMbid;
    if (releaseMbid !== undefined) track.releaseMbid = this.string(releaseMbid);
    if (artistMbids !== undefined) track.artistMbids = this.list(artistMbids);
    return track;
  }

  album(raw: AlbumRecord): AlbumRecord {
    return {
      ...raw,
      ...(raw.artist === undefined ? {} : { artist: this.string(raw.artist) }),
      id: this.string(raw.id),
      artistIds: this.list(raw.artistIds),
    };
  }

  artist(raw: ArtistRecord): ArtistRecord {
    return { ...raw, id: this.string(raw.id), name: this.string(raw.name) };
  }
}

const EMPTY: readonly string[] = Object.freeze([]);
const EMPTY_ARTWORK: readonly ArtworkInfo[] = Object.freeze([]);
