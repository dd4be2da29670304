import type { SearchResult } from '../../contract/playback.js';
import type { AlbumRecord, ArtistRecord, TrackRecord } from '../../domain/library.js';
import type { Principal } from '../../domain/user.js';
import type { LibraryCatalog } from '../library-catalog.js';
import type { LibraryService } from '../library-service.js';
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

/**
 * Search by name over tracks, albums and artists (docs/API.md, Search). The library replaces its
 * catalog (never changes it) whenever a scan or an edit changes the library; the indexes are built
 * once per catalog, on the first search that sees it, and dropped with it.
 */
export class SearchService {
  private readonly indexes = new WeakMap<LibraryCatalog, SnapshotIndex>();

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
    const index = this.current();
    const page = <T>(found: NameIndex<T>, { count, offset }: SearchWindow) =>
      count <= 0 ? [] : found.search(query, offset + count).slice(offset);
    return {
      tracks: page(index.tracks, windows.tracks).map((track) => this.library.getTrack(caller, track.id)),
      albums: page(index.albums, windows.albums).map((album) => this.library.getAlbum(caller, album.id)),
      artists: page(index.artists, windows.artists).map((artist) =>
        this.library.getArtist(caller, artist.id),
      ),
    };
  }

  /** Builds the indexes of the current snapshot now (e.g. after start) instead of at the first search. */
  warm(): void {
    this.current();
  }

  private current(): SnapshotIndex {
    const catalog = this.library.snapshot();
    let index = this.indexes.get(catalog);
    if (!index) {
      index = {
        tracks: new NameIndex(catalog.tracksByName(), (track) => track.name),
        albums: new NameIndex(catalog.albumsByName(), (album) => album.name),
        artists: new NameIndex(catalog.artistsByName(), (artist) => artist.name),
      };
      this.indexes.set(catalog, index);
    }
    return index;
  }
}
