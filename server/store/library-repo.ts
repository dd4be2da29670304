import type { AlbumRecord, ArtistRecord, LibraryIndex, TrackRecord } from '../domain/library.js';
import type { LibraryStore } from '../domain/ports.js';
import { JsonDocument, type Versioned } from './json-document.js';

interface LibraryFile extends Versioned, LibraryIndex {}

/**
 * The scanned library (library.json): tracks, albums and artists as the scanner made them, with
 * lookup maps rebuilt whenever the library changes.
 */
export class LibraryRepo implements LibraryStore {
  private tracksById = new Map<string, TrackRecord>();
  private albumsById = new Map<string, AlbumRecord>();
  private artistsById = new Map<string, ArtistRecord>();

  private constructor(private readonly doc: JsonDocument<LibraryFile>) {
    this.reindex();
  }

  static async open(path: string): Promise<LibraryRepo> {
    return new LibraryRepo(
      await JsonDocument.open<LibraryFile>(path, { schemaVersion: 1, tracks: [], albums: [], artists: [] }),
    );
  }

  index(): Readonly<LibraryIndex> {
    return this.doc.data;
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

  /** Replaces the whole library with a scan's result. */
  async replace(index: LibraryIndex): Promise<void> {
    await this.doc.mutate((data) => {
      data.tracks = index.tracks;
      data.albums = index.albums;
      data.artists = index.artists;
    });
    this.reindex();
  }

  /** Replaces one track (e.g. after its artwork changed). */
  async updateTrack(track: TrackRecord): Promise<void> {
    await this.doc.mutate((data) => {
      const at = data.tracks.findIndex((other) => other.id === track.id);
      if (at >= 0) data.tracks[at] = track;
    });
    this.tracksById.set(track.id, track);
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }

  private reindex(): void {
    const data = this.doc.data;
    this.tracksById = new Map(data.tracks.map((track) => [track.id, track]));
    this.albumsById = new Map(data.albums.map((album) => [album.id, album]));
    this.artistsById = new Map(data.artists.map((artist) => [artist.id, artist]));
  }
}
