import type { AlbumRecord, ArtistRecord, LibraryIndex, TrackRecord } from '../domain/library.js';
import type { LibraryStore } from '../domain/ports.js';
import { IdTable, matches } from './id-table.js';
import {
  isInLines,
  readLibraryFile,
  readLibraryMark,
  writeLibraryFile,
  type LibraryMark,
} from './library-file.js';
import { LibraryPool } from './library-pool.js';
import { TrackColumns } from './track-columns.js';

/**
 * The scanned library (library.json): tracks, albums and artists as the scanner made them, with
 * lookup maps rebuilt whenever the library changes. Tracks are held in columns (track-columns.ts),
 * albums and artists pooled (library-pool.ts), and the file is read and written a record at a time
 * (library-file.ts): a collector's library is hundreds of thousands of tracks.
 *
 * A change is written first and becomes what reads see once it is on disk; changes are written one
 * after another, each on the library the one before it left.
 */
export class LibraryRepo implements LibraryStore {
  private data: LibraryIndex;
  /** The columns the current tracks are rows of; an edit adds its track to them. */
  private columns: TrackColumns;
  private tracksById = IdTable.of<TrackRecord>([]);
  private albumsById = new Map<string, AlbumRecord>();
  private artistsById = new Map<string, ArtistRecord>();
  private writing: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly path: string,
    data: LibraryIndex,
    columns: TrackColumns,
    /** The mark of the file the current library is (library-file.ts); null for a file without a stamp. */
    private currentMark: LibraryMark | null,
  ) {
    this.data = data;
    this.columns = columns;
    this.reindex();
  }

  get mark(): LibraryMark | null {
    return this.currentMark;
  }

  /** `turn`: awaited between the file's chunks (readLibraryFile). */
  static async open(path: string, turn?: () => Promise<void>): Promise<LibraryRepo> {
    const pool = new LibraryPool();
    const columns = new TrackColumns();
    // Taken before the read: a file changed during it is marked as it was, so it counts as changed.
    const read = await readLibraryMark(path);
    const stored = await readLibraryFile(
      path,
      {
        artist: (raw) => pool.artist(raw),
        album: (raw) => pool.album(raw),
        track: (raw) => columns.add(raw),
      },
      turn,
    );
    columns.seal();
    const empty: LibraryIndex = { tracks: [], albums: [], artists: [] };
    // A file an older Melon wrote on one line is written a record a line at once: read whole, it
    // costs its size again in memory at every start, and a start's scan that finds nothing new
    // does not write it.
    let mark = read;
    if (!stored || !(await isInLines(path))) {
      await writeLibraryFile(path, stored ?? empty);
      mark = await readLibraryMark(path);
    }
    return new LibraryRepo(path, stored ?? empty, columns, mark);
  }

  index(): Readonly<LibraryIndex> {
    return this.data;
  }

  track(id: string): TrackRecord | undefined {
    return this.tracksById.get(id);
  }

  album(id: string): AlbumRecord | undefined {
    return this.albumsById.get(id);
  }

  artist(id: string): ArtistRecord | undefined {
    return this.artistsById.get(id);
  }

  /**
   * Replaces the whole library with a scan's result. The store takes the index over: its lists are
   * filled with the rows of new columns and the pool's smaller copies in place, so the scan's own
   * records can go as they are copied instead of living beside the copies until the write ends.
   */
  replace(index: LibraryIndex): Promise<void> {
    return this.change(() => {
      const pool = new LibraryPool();
      const columns = new TrackColumns();
      const { tracks, albums, artists } = index;
      for (let i = 0; i < tracks.length; i++) tracks[i] = columns.add(tracks[i]!);
      columns.seal();
      for (let i = 0; i < albums.length; i++) albums[i] = pool.album(albums[i]!);
      for (let i = 0; i < artists.length; i++) artists[i] = pool.artist(artists[i]!);
      return { next: { tracks, albums, artists }, columns };
    });
  }

  /** Replaces one track (e.g. after its artwork changed). */
  updateTrack(track: TrackRecord): Promise<void> {
    // A spread of a stored track (a view over columns) copies none of its fields: see plainTrack.
    if (typeof track.id !== 'string' || typeof track.path !== 'string')
      return Promise.reject(
        new TypeError('A track record without its fields: copy a stored track with plainTrack'),
      );
    return this.change((data) => {
      const at = data.tracks.findIndex((other) => matches(other, track.id));
      if (at < 0) return null;
      // A new row: views of the library made before this edit keep reading the old one.
      const kept = this.columns.add(track);
      const tracks = [...data.tracks];
      tracks[at] = kept;
      return { next: { ...data, tracks }, reindex: () => (this.tracksById = this.tracksById.over(tracks)) };
    });
  }

  /** Resolves once every change asked for so far is on disk (or has failed). */
  async flush(): Promise<void> {
    let last: Promise<unknown> | undefined;
    while (last !== this.writing) {
      last = this.writing;
      await last.catch(() => undefined);
    }
  }

  /**
   * Writes the library `next` makes of the current one (null: nothing to change), then makes it
   * the current one; `reindex` updates the lookup maps when not all of them need rebuilding.
   */
  private change(
    next: (data: LibraryIndex) => { next: LibraryIndex; columns?: TrackColumns; reindex?: () => void } | null,
  ): Promise<void> {
    const done = this.writing
      .catch(() => undefined)
      .then(async () => {
        const changed = next(this.data);
        if (!changed) return;
        await writeLibraryFile(this.path, changed.next);
        this.currentMark = await readLibraryMark(this.path);
        this.data = changed.next;
        if (changed.columns) this.columns = changed.columns;
        if (changed.reindex) changed.reindex();
        else this.reindex();
      });
    this.writing = done;
    return done;
  }

  private reindex(): void {
    const data = this.data;
    this.tracksById = IdTable.of(data.tracks);
    this.albumsById = new Map(data.albums.map((album) => [album.id, album]));
    this.artistsById = new Map(data.artists.map((artist) => [artist.id, artist]));
  }
}
