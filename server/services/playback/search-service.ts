import type { SearchResult } from '../../contract/playback.js';
import type { AlbumRecord, ArtistRecord, TrackRecord } from '../../domain/library.js';
import type { Principal } from '../../domain/user.js';
import type { LibraryCatalog } from '../library-catalog.js';
import type { LibraryService } from '../library-service.js';
import { finish, inBackground, WarmUps, type Steps } from '../steps.js';
import { NameIndex } from './search-index.js';

export const SEARCH_DEFAULT_COUNT = 20;
export const SEARCH_MAX_COUNT = 100;

export interface SearchWindow {
  count: number;
  offset: number;
}

export interface SearchWindows {
  tracks: SearchWindow;
  albums: SearchWindow;
  artists: SearchWindow;
}

/** The three name indexes of one library snapshot. */
interface SnapshotIndex {
  tracks: NameIndex<TrackRecord>;
  albums: NameIndex<AlbumRecord>;
  artists: NameIndex<ArtistRecord>;
}

/** What a search found: the records, for adapters that present them in their own shapes. */
export interface FoundRecords {
  tracks: TrackRecord[];
  albums: AlbumRecord[];
  artists: ArtistRecord[];
}

/**
 * Search by name over tracks, albums and artists (docs/API.md, Search). The library replaces its
 * catalog (never changes it) whenever a scan or an edit changes the library; the indexes are built
 * once per catalog and dropped with it: by `warm`, in steps, after the server starts and after a
 * scan, or else by the first search that sees the catalog.
 */
export class SearchService {
  private readonly indexes = new WeakMap<LibraryCatalog, SnapshotIndex>();
  /** The indexes a warm-up is making; a search that needs them finishes them at once. */
  private making: { catalog: LibraryCatalog; steps: Steps<SnapshotIndex> } | undefined;
  private readonly warmUps = new WarmUps();

  constructor(private readonly library: LibraryService) {}

  /** At most `count` of each kind, best matches first, in the shapes of the library lists. */
  search(caller: Principal, query: string, count = SEARCH_DEFAULT_COUNT): SearchResult {
    const window = { count, offset: 0 };
    return this.searchWindows(caller, query, { tracks: window, albums: window, artists: window });
  }

  /**
   * A page of each kind (`offset` matches skipped, then at most `count`), as Subsonic's search3
   * asks for them; a count of 0 leaves that kind out.
   */
  searchWindows(caller: Principal, query: string, windows: SearchWindows): SearchResult {
    const found = this.find(query, windows);
    return {
      tracks: found.tracks.map((track) => this.library.getTrack(caller, track.id)),
      albums: found.albums.map((album) => this.library.getAlbum(caller, album.id)),
      artists: found.artists.map((artist) => this.library.getArtist(caller, artist.id)),
    };
  }

  /** The records of `searchWindows`, the same for every caller. */
  find(query: string, windows: SearchWindows): FoundRecords {
    const index = this.current();
    const page = <T>(found: NameIndex<T>, { count, offset }: SearchWindow) =>
      count <= 0 ? [] : found.search(query, offset + count).slice(offset);
    return {
      tracks: page(index.tracks, windows.tracks),
      albums: page(index.albums, windows.albums),
      artists: page(index.artists, windows.artists),
    };
  }

  /**
   * Builds the indexes of the current snapshot now, a few milliseconds at a time between requests,
   * instead of at the first search. Resolves when they are built, or left for a newer snapshot.
   */
  warm(): Promise<void> {
    return this.warmUps.run(async () => {
      const catalog = this.library.snapshot();
      if (this.indexes.has(catalog)) return;
      const making = { catalog, steps: indexing(catalog) };
      this.making = making;
      const index = await inBackground(
        making.steps,
        // Not when a search finished it, nor for a library that has changed since.
        () => this.making === making && this.library.snapshot() === catalog,
      );
      if (this.making === making) this.making = undefined;
      if (index) this.indexes.set(catalog, index);
    });
  }

  private current(): SnapshotIndex {
    const catalog = this.library.snapshot();
    let index = this.indexes.get(catalog);
    if (!index) {
      const steps = this.making?.catalog === catalog ? this.making.steps : indexing(catalog);
      this.making = undefined;
      index = finish(steps);
      this.indexes.set(catalog, index);
    }
    return index;
  }
}

/** The three name indexes of a snapshot, made in steps (NameIndex.making). */
function* indexing(catalog: LibraryCatalog): Steps<SnapshotIndex> {
  const tracks = yield* NameIndex.making(catalog.tracksByName(), (track) => track.name);
  const albums = yield* NameIndex.making(catalog.albumsByName(), (album) => album.name);
  const artists = yield* NameIndex.making(catalog.artistsByName(), (artist) => artist.name);
  return { tracks, albums, artists };
}
