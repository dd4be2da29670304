import type { Services } from '../../services/index.js';
import type { MethodRequest } from '../types.js';
import { checkMusicFolder } from './system.js';

/**
 * Subsonic's search query: words in any order, each a case-insensitive part of the name. Clients
 * send `""` (two quote characters) or nothing for "everything", which OpenSubsonic requires servers
 * to answer (offline sync pages through the whole library this way).
 */
function matcher(query: string): (name: string) => boolean {
  const cleaned = query
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .replace(/\*/g, ' ');
  const words = cleaned.toLocaleLowerCase('en').split(/\s+/).filter(Boolean);
  return (name) => {
    const lower = name.toLocaleLowerCase('en');
    return words.every((word) => lower.includes(word));
  };
}

export function searchMethods(services: Services) {
  const { library } = services;

  function search(request: MethodRequest) {
    checkMusicFolder(request);
    const { params } = request;
    const query = params.string('query') ?? '';
    const matches = matcher(query);
    const page = <T>(items: readonly T[], kind: 'artist' | 'album' | 'song') =>
      items.slice(
        params.int(`${kind}Offset`, 0, 0, 1_000_000),
        params.int(`${kind}Offset`, 0, 0, 1_000_000) + params.int(`${kind}Count`, 20, 0, 500),
      );
    return {
      artists: page(
        library.artistRecords().filter((artist) => matches(artist.name)),
        'artist',
      ),
      albums: page(
        library.albumRecords().filter((album) => matches(album.name)),
        'album',
      ),
      songs: page(
        library.trackRecords().filter((track) => matches(track.name)),
        'song',
      ),
    };
  }

  return {
    search2: (request: MethodRequest) => {
      const found = search(request);
      const p = request.present;
      return {
        searchResult2: {
          artist: found.artists.map((artist) => p.indexArtist(artist)),
          album: found.albums.map((album) => p.albumDirectory(album)),
          song: found.songs.map((track) => p.song(track)),
        },
      };
    },

    search3: (request: MethodRequest) => {
      const found = search(request);
      const p = request.present;
      return {
        searchResult3: {
          artist: found.artists.map((artist) => p.artist(artist)),
          album: found.albums.map((album) => p.album(album)),
          song: found.songs.map((track) => p.song(track)),
        },
      };
    },
  };
}
