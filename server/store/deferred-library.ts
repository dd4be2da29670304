import type { AlbumRecord, ArtistRecord, LibraryIndex, TrackRecord } from '../domain/library.js';
import type { LibraryStore } from '../domain/ports.js';
import { readLibraryMark, type LibraryMark } from './library-file.js';
import { LibraryRepo } from './library-repo.js';

const EMPTY: Readonly<LibraryIndex> = Object.freeze({ tracks: [], albums: [], artists: [] });

/**
 * The scanned library (LibraryRepo, library.json) of a store that may open before the file is read:
 * empty until `open` has read it. A server listens first and reads it after (a collector's
 * library.json is tens of MB), holding the requests that need it meanwhile (http/starting.ts). A
 * change asked for before then waits for the file.
 */
export class DeferredLibrary implements LibraryStore {
  private repo: LibraryRepo | undefined;
  private opening: Promise<LibraryRepo> | undefined;
  private closed = false;

  constructor(private readonly path: string) {}

  /**
   * Reads library.json, once; resolves when its records are in. Refused once the store closes.
   * `turn`: awaited between the file's chunks, for the read to give way to other work.
   */
  async open(turn?: () => Promise<void>): Promise<void> {
    // Opening may write the file (a first one, or an older layout rewritten): never once the store
    // has let go of the data folder, which another Melon may hold by then.
    if (!this.opening && this.closed) throw new Error('The store is closed: library.json is not read');
    this.opening ??= LibraryRepo.open(this.path, turn).then((repo) => (this.repo = repo));
    await this.opening;
  }

  /** No read begins after this; one already begun is waited for by `flush`. */
  close(): void {
    this.closed = true;
  }

  /**
   * The mark of the library as it stands (library-file.ts): of the file the records were read from
   * or last written to, once open; before that, of the file on disk, read without the rest. Null
   * when the file has no stamp.
   */
  async mark(): Promise<LibraryMark | null> {
    return this.repo ? this.repo.mark : readLibraryMark(this.path);
  }

  index(): Readonly<LibraryIndex> {
    return this.repo?.index() ?? EMPTY;
  }

  track(id: string): TrackRecord | undefined {
    return this.repo?.track(id);
  }

  album(id: string): AlbumRecord | undefined {
    return this.repo?.album(id);
  }

  artist(id: string): ArtistRecord | undefined {
    return this.repo?.artist(id);
  }

  async replace(index: LibraryIndex): Promise<void> {
    await (await this.opened()).replace(index);
  }

  async updateTrack(track: TrackRecord): Promise<void> {
    await (await this.opened()).updateTrack(track);
  }

  /** Resolves once every change asked for so far is on disk; nothing to wait for when never read. */
  async flush(): Promise<void> {
    // A file that could not be read was never changed.
    const repo = await this.opening?.catch(() => undefined);
    await repo?.flush();
  }

  private async opened(): Promise<LibraryRepo> {
    await this.open();
    return this.repo!;
  }
}
