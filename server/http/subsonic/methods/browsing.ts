import type { TrackRecord } from '../../../domain/library.js';
import type { Services } from '../../../services/create-services.js';
import type { LibraryCatalog } from '../../../services/library-catalog.js';
import { ArtistIndexAnswers, IGNORED_ARTICLES, type IndexAnswer } from '../artist-index.js';
import { acceptsGzip } from '../../accept-encoding.js';
import { notFoundError } from '../errors.js';
import { envelope, render, type Payload } from '../render.js';
import { callerOf, type MethodRequest } from '../types.js';
import { householdTrackPlays } from './household.js';
import { checkMusicFolder } from './system.js';

const byTitle = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true });

/** Every genre with its songs and albums, by name. */
function genreCounts(tracks: readonly TrackRecord[]) {
  const genres = new Map<string, { value: string; songCount: number; albums: Set<string> }>();
  for (const track of tracks) {
    for (const genre of track.genres) {
      const key = genre.toLocaleLowerCase('en');
      const entry = genres.get(key) ?? { value: genre, songCount: 0, albums: new Set<string>() };
      entry.songCount += 1;
      if (track.albumId) entry.albums.add(track.albumId);
      genres.set(key, entry);
    }
  }
  return [...genres.values()]
    .sort((a, b) => a.value.localeCompare(b.value, 'en', { sensitivity: 'base' }))
    .map(({ value, songCount, albums }) => ({ songCount, albumCount: albums.size, value }));
}

/**
 * One thing the browsing methods read of a library snapshot, made at its first read after a change
 * and kept with that snapshot: the library replaces its catalog, never changes it, when a scan or
 * an edit changes the library, so a new catalog is a new key and the old one's values go with it.
 */
function perSnapshot<T>(library: Services['library'], make: (snapshot: LibraryCatalog) => T): () => T {
  const kept = new WeakMap<LibraryCatalog, T>();
  return () => {
    const snapshot = library.snapshot();
    if (!kept.has(snapshot)) kept.set(snapshot, make(snapshot));
    return kept.get(snapshot)!;
  };
}

/** Whether the caller takes a gzipped answer. */
const gzipOk = (request: MethodRequest) => acceptsGzip(request.http.header('accept-encoding'));

/** A kept index answer as sent: gzipped or not, it says it varies with Accept-Encoding. */
function indexReply({ body, type, encoding }: IndexAnswer) {
  const headers: Record<string, string> = { Vary: 'Accept-Encoding' };
  if (encoding) headers['Content-Encoding'] = encoding;
  return { body, type, headers };
}

export function browsingMethods(services: Services, started?: Promise<unknown>) {
  const { library } = services;
  const index = new ArtistIndexAnswers(services);
  // Made ahead, so no player waits for them: once the server has started, and after each scan that
  // changed the library. A warm-up that fails leaves the work to the first request, which says why.
  const warm = () => index.warm().catch(() => undefined);
  void started?.then(warm, () => undefined);
  library.onScanned(() => void warm());
  const shelves = {
    genres: perSnapshot(library, (snapshot) => genreCounts(snapshot.tracksByName())),
  };

  return {
    getIndexes: (request: MethodRequest) => {
      checkMusicFolder(request);
      const modified = index.lastModified();
      const since = request.params.optionalInt('ifModifiedSince', 0, Number.MAX_SAFE_INTEGER);
      const indexes: Payload = { ignoredArticles: IGNORED_ARTICLES.join(' '), lastModified: modified };
      // Unchanged: the short answer, never gzipped, still says it varies with Accept-Encoding, so a
      // cache between the player and Melon does not keep it for a caller that takes gzip.
      let answer: IndexAnswer;
      if (since !== undefined && since >= modified) {
        const { text, type } = render(request.format, envelope('ok', services.version, { indexes }));
        answer = { body: Buffer.from(text), type };
      } else answer = index.answer('getIndexes', request.format, request.present, gzipOk(request));
      return { binary: true, ...indexReply(answer) } as const;
    },

    getArtists: (request: MethodRequest) => {
      checkMusicFolder(request);
      return {
        binary: true,
        ...indexReply(index.answer('getArtists', request.format, request.present, gzipOk(request))),
      } as const;
    },

    getArtist: (request: MethodRequest) => {
      const artist = library.artist(request.params.required('id'));
      return {
        artist: {
          ...request.present.artist(artist),
          album: library.artistAlbums(artist.id).map((album) => request.present.album(album)),
        },
      };
    },

    getAlbum: (request: MethodRequest) => {
      const album = library.album(request.params.required('id'));
      return {
        album: {
          ...request.present.album(album),
          song: library.albumTracks(album.id).map((track) => request.present.song(track)),
        },
      };
    },

    getSong: (request: MethodRequest) => ({
      song: request.present.song(library.track(request.params.required('id'))),
    }),

    /** Artist → albums → songs: an artist's directory lists its albums, an album's its songs. */
    getMusicDirectory: (request: MethodRequest) => {
      const id = request.params.required('id');
      const { present } = request;
      if (library.has('artist', id)) {
        const artist = library.artist(id);
        return {
          directory: {
            id,
            name: artist.name,
            starred: present.indexArtist(artist).starred,
            child: library.artistAlbums(id).map((album) => present.albumDirectory(album)),
          },
        };
      }
      if (library.has('album', id)) {
        const album = library.album(id);
        const folder = present.albumDirectory(album);
        return {
          directory: {
            id,
            parent: album.artistIds[0],
            name: album.name,
            starred: folder.starred,
            userRating: folder.userRating,
            averageRating: folder.averageRating,
            playCount: folder.playCount,
            child: library.albumTracks(id).map((track) => present.song(track)),
          },
        };
      }
      throw notFoundError(`Directory '${id}' not found`);
    },

    getGenres: () => ({ genres: { genre: shelves.genres() } }),

    /**
     * An artist's most played tracks in the household: the plays of every listener whose statistics
     * the caller may read (their own, public ones, everyone's for an Admin). `id` (OpenSubsonic's
     * topSongsByArtistId) wins over `artist` (a name, matched ignoring case).
     */
    getTopSongs: (request: MethodRequest) => {
      const caller = callerOf(request);
      const count = request.params.int('count', 50, 0, 500);
      const id = request.params.string('id');
      let artistId: string | undefined;
      if (id !== undefined && id !== '') artistId = library.artist(id).id;
      else {
        const name = request.params.required('artist').toLocaleLowerCase('en');
        artistId = library.artistRecords().find((artist) => artist.name.toLocaleLowerCase('en') === name)?.id;
      }
      if (artistId === undefined) return { topSongs: {} };
      const playsOf = householdTrackPlays(services, caller);
      const song = library
        .artistTracks(artistId)
        .map((track) => ({ track, plays: playsOf(track.id) }))
        .filter(({ plays }) => plays > 0)
        // Ties by title, so the order does not hang on ids (hashes of the files' paths).
        .sort(
          (a, b) =>
            b.plays - a.plays || byTitle(a.track.name, b.track.name) || (a.track.id < b.track.id ? -1 : 1),
        )
        .slice(0, count)
        .map(({ track }) => request.present.song(track));
      return { topSongs: { song } };
    },
  };
}
