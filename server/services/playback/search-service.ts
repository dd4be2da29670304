import type { AlbumRecord, ArtistRecord, TrackRecord } from '../../domain/library.js';
import type { Principal } from '../../domain/user.js';
import type { LibraryCatalog } from '../library-catalog.js';
import type { AlbumView, ArtistView, LibraryService, TrackView } from '../library-service.js';
import { NameIndex } from './search-index.js';

export const SEARCH_DEFAULT_COUNT = 20;
export const SEARCH_MAX_COUNT = 100;

export interface SearchResult {
  tracks: TrackView[];
  albums: AlbumView[];
  artists: ArtistView[];
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
    const index = this.current();
    return {
      tracks: index.tracks.search(query, count).map((track) => this.library.getTrack(caller, track.id)),
      albums: index.albums.search(query, count).map((album) => this.library.getAlbum(caller, album.id)),
      artists: index.artists.search(query, count).map((artist) => this.library.getArtist(caller, artist.id)),
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
