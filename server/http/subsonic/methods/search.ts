import type { Services } from '../../../services/create-services.js';
import type { MethodRequest } from '../types.js';
import type { Payload } from '../render.js';
import { checkMusicFolder } from './system.js';

/**
 * search2 and search3 over Melon's search service (docs/API.md, Search: accents and case ignored,
 * names that start with the query first). Clients send `""` (two quote characters) or nothing for
 * "everything", which OpenSubsonic requires servers to answer (offline sync pages through the whole
 * library this way): then each kind is listed by name.
 */
export function searchMethods(services: Services) {
  const { library } = services;

  function search(request: MethodRequest) {
    checkMusicFolder(request);
    const { params } = request;
    const query = (params.string('query') ?? '')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim();
    const window = (kind: 'artist' | 'album' | 'song') => ({
      count: params.int(`${kind}Count`, 20, 0, 500),
      offset: params.int(`${kind}Offset`, 0, 0, 1_000_000),
    });
    const windows = { artists: window('artist'), albums: window('album'), tracks: window('song') };
    if (query === '') {
      const page = <T>(all: readonly T[], { count, offset }: { count: number; offset: number }) =>
        all.slice(offset, offset + count);
      return {
        artists: page(library.artistRecords(), windows.artists),
        albums: page(library.albumRecords(), windows.albums),
        songs: page(library.trackRecords(), windows.tracks),
      };
    }
    const found = services.search.find(query, windows);
    return { artists: found.artists, albums: found.albums, songs: found.tracks };
  }

  /** search2 answers in the folder shapes, search3 in the ID3 ones; both find the same. */
  function searchResult(request: MethodRequest, id3: boolean): Payload {
    const found = search(request);
    const p = request.present;
    return {
      artist: found.artists.map((artist) => (id3 ? p.artist(artist) : p.indexArtist(artist))),
      album: found.albums.map((album) => (id3 ? p.album(album) : p.albumDirectory(album))),
      song: found.songs.map((track) => p.song(track)),
    };
  }

  return {
    search2: (request: MethodRequest) => ({ searchResult2: searchResult(request, false) }),
    search3: (request: MethodRequest) => ({ searchResult3: searchResult(request, true) }),
  };
}
