import type { AlbumRecord, ArtistRecord } from '../domain/library.js';

/**
 * Makes the library's album and artist records small in memory. JSON.parse and the scanner make a
 * new string for every field of every record and a new array for every artist list, though ids
 * and lists repeat. The pool keeps one copy of each repeated string and one frozen copy of each
 * repeated list. (Tracks are held in columns: track-columns.ts.)
 *
 * Shared lists are frozen: a change to one would change every record holding it, so none may
 * change (nothing in Melon changes a record's lists in place; a change makes a new record).
 */
export class LibraryPool {
  private readonly strings = new Map<string, string>();
  private readonly lists = new Map<string, readonly string[]>();

  /** The pool's copy of a string that repeats across records. */
  string(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  /** The pool's frozen copy of a list of repeated strings (artist ids). */
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
