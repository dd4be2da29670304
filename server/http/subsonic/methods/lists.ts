import { randomInt } from 'node:crypto';
import type { Clock } from '../../../clock.js';
import type { AlbumRecord } from '../../../domain/library.js';
import type { Services } from '../../../services/create-services.js';
import { SubsonicError, SUBSONIC_CODES } from '../errors.js';
import type { Payload } from '../render.js';
import { callerOf, type MethodRequest } from '../types.js';
import { checkMusicFolder } from './system.js';

export const ALBUM_LIST_TYPES = [
  'random',
  'newest',
  'frequent',
  'recent',
  'highest',
  'alphabeticalByName',
  'alphabeticalByArtist',
  'starred',
  'byYear',
  'byGenre',
] as const;
type AlbumListType = (typeof ALBUM_LIST_TYPES)[number];

/**
 * `count` items picked at random: the first `count` steps of a Fisher–Yates shuffle, with the few
 * positions it swapped kept aside instead of a copy of the whole list.
 */
function pickRandom<T>(items: readonly T[], count: number): T[] {
  const n = Math.min(count, items.length);
  const moved = new Map<number, number>();
  const at = (position: number) => moved.get(position) ?? position;
  const picked: T[] = [];
  for (let i = 0; i < n; i++) {
    const j = i + randomInt(items.length - i);
    const chosen = at(j);
    moved.set(j, at(i));
    picked.push(items[chosen]!);
  }
  return picked;
}

export function listMethods(services: Services, clock: Clock) {
  const { library, stats, ratings, favourites } = services;
  const albumsById = (ids: readonly string[]) =>
    ids.filter((id) => library.has('album', id)).map((id) => library.album(id));

  /** The albums of one getAlbumList(2) page, for the calling user. */
  async function albumList(request: MethodRequest): Promise<AlbumRecord[]> {
    checkMusicFolder(request);
    const caller = callerOf(request);
    const { params } = request;
    const type = params.required('type') as AlbumListType;
    if (!ALBUM_LIST_TYPES.includes(type))
      throw new SubsonicError(
        SUBSONIC_CODES.generic,
        `Parameter 'type' must be one of ${ALBUM_LIST_TYPES.join(', ')}`,
      );
    const size = params.int('size', 10, 0, 500);
    const offset = params.int('offset', 0, 0, 1_000_000);
    const page = (albums: readonly AlbumRecord[]) => albums.slice(offset, offset + size);
    const all = library.albumRecords();
    switch (type) {
      case 'random':
        return pickRandom(all, size);
      case 'newest':
        return page(library.newestAlbums());
      case 'frequent': {
        const top = await stats.ranked(caller, 'albums', { page: 0, count: offset + size });
        return page(albumsById(top.map((item) => item.id)));
      }
      case 'recent': {
        const recent = await stats.recent(caller, 'albums', { page: 0, count: offset + size });
        return page(albumsById(recent.map((item) => item.id)));
      }
      case 'highest':
        return page(albumsById(ratings.highest(caller, 'album').map((item) => item.id)));
      case 'alphabeticalByName':
        return page(all);
      case 'alphabeticalByArtist':
        return page(library.albumsByArtist());
      case 'starred':
        return page(albumsById(favourites.list(caller, 'album').map((item) => item.id)));
      case 'byYear': {
        const from = params.requiredInt('fromYear', 0, 9999);
        const to = params.requiredInt('toYear', 0, 9999);
        return page(library.albumsOfYears(from, to));
      }
      case 'byGenre':
        return page(library.albumsOfGenre(params.required('genre')));
    }
  }

  function starred(request: MethodRequest, present: 'id3' | 'folders'): Payload {
    checkMusicFolder(request);
    const caller = callerOf(request);
    const p = request.present;
    const artists = favourites.list(caller, 'artist').map((item) => library.artist(item.id));
    const albums = favourites.list(caller, 'album').map((item) => library.album(item.id));
    const songs = favourites.list(caller, 'track').map((item) => library.track(item.id));
    return {
      artist: artists.map((artist) => (present === 'id3' ? p.artist(artist) : p.indexArtist(artist))),
      album: albums.map((album) => (present === 'id3' ? p.album(album) : p.albumDirectory(album))),
      song: songs.map((track) => p.song(track)),
    };
  }

  return {
    getAlbumList: async (request: MethodRequest) => ({
      albumList: { album: (await albumList(request)).map((album) => request.present.albumDirectory(album)) },
    }),

    getAlbumList2: async (request: MethodRequest) => ({
      albumList2: { album: (await albumList(request)).map((album) => request.present.album(album)) },
    }),

    getRandomSongs: (request: MethodRequest) => {
      checkMusicFolder(request);
      const { params } = request;
      const size = params.int('size', 10, 0, 500);
      const genre = params.string('genre');
      const from = params.optionalInt('fromYear', 0, 9999);
      const to = params.optionalInt('toYear', 0, 9999);
      const ofGenre = genre ? library.tracksOfGenre(genre) : library.trackRecords();
      const candidates =
        from === undefined && to === undefined
          ? ofGenre
          : ofGenre.filter(
              (track) =>
                (from === undefined || (track.year !== null && track.year >= from)) &&
                (to === undefined || (track.year !== null && track.year <= to)),
            );
      return {
        randomSongs: { song: pickRandom(candidates, size).map((track) => request.present.song(track)) },
      };
    },

    getSongsByGenre: (request: MethodRequest) => {
      checkMusicFolder(request);
      const { params } = request;
      const genre = params.required('genre');
      const count = params.int('count', 10, 0, 500);
      const offset = params.int('offset', 0, 0, 1_000_000);
      const song = library
        .tracksOfGenre(genre)
        .slice(offset, offset + count)
        .map((track) => request.present.song(track));
      return { songsByGenre: { song } };
    },

    getStarred: (request: MethodRequest) => ({ starred: starred(request, 'folders') }),

    getStarred2: (request: MethodRequest) => ({ starred2: starred(request, 'id3') }),

    /** Who is playing what: the caller's own entry and those of listeners whose statistics they may read. */
    getNowPlaying: (request: MethodRequest) => {
      const caller = callerOf(request);
      const names = new Map(services.users.list().map((user) => [user.id, user.username]));
      const now = clock.now();
      const entry = services.nowPlaying
        .list()
        .filter((item) => library.hasTrack(item.trackId) && names.has(item.userId))
        .filter((item) => item.userId === caller.userId || services.stats.mayRead(caller, item.userId))
        .map((item, index) => ({
          ...request.present.song(library.track(item.trackId)),
          username: names.get(item.userId),
          minutesAgo: Math.max(0, Math.floor((now - item.startedAt) / 60_000)),
          playerId: index + 1,
          playerName: item.client ?? undefined,
        }));
      return { nowPlaying: { entry } };
    },
  };
}
