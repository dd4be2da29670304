import type { AlbumRecord, ArtistRecord, LibraryIndex, TrackRecord } from '../../server/domain/library.js';
import type { LibraryStore } from '../../server/domain/ports.js';

/** The scanned library in memory (seed it with makeLibrary from test/factories/library.ts). */
export class FakeLibraryStore implements LibraryStore {
  private data: LibraryIndex;

  constructor(initial: LibraryIndex = { tracks: [], albums: [], artists: [] }) {
    this.data = initial;
  }

  index(): Readonly<LibraryIndex> {
    return this.data;
  }

  track(id: string): TrackRecord | undefined {
    return this.data.tracks.find((track) => track.id === id);
  }

  album(id: string): AlbumRecord | undefined {
    return this.data.albums.find((album) => album.id === id);
  }

  artist(id: string): ArtistRecord | undefined {
    return this.data.artists.find((artist) => artist.id === id);
  }

  replace(index: LibraryIndex): Promise<void> {
    this.data = { tracks: index.tracks, albums: index.albums, artists: index.artists };
    return Promise.resolve();
  }

  updateTrack(track: TrackRecord): Promise<void> {
    this.data = {
      ...this.data,
      tracks: this.data.tracks.map((other) => (other.id === track.id ? track : other)),
    };
    return Promise.resolve();
  }
}
