import type { CollectionService } from '../../services/collection-service.js';
import type { LibraryService } from '../../services/library-service.js';
import type { CollectionKind } from '../../domain/collection.js';
import {
  albumSchema,
  artistSchema,
  collectionSchema,
  pageOf,
  scanProgressSchema,
  trackSchema,
} from '../openapi-schemas.js';
import { idPath, paging, stringList, text } from '../params.js';
import { callerOf, endpoint } from '../types.js';

const listQuery = {
  q: text(256).optional().meta({ description: 'A case-insensitive part of the name' }),
  ...paging,
};

const trackPage = pageOf(trackSchema, 'TrackPage');
const albumPage = pageOf(albumSchema, 'AlbumPage');
const artistPage = pageOf(artistSchema, 'ArtistPage');
const collectionPage = pageOf(collectionSchema, 'CollectionPage');

export function libraryHandlers(library: LibraryService) {
  return {
    startScan: endpoint({
      summary: 'Start a library scan (one at a time)',
      status: 202,
      response: scanProgressSchema,
      responseDescription: 'The progress; a scan already running is not started twice',
      handle: () => library.startScan(),
    }),
    scanStatus: endpoint({
      summary: 'The progress of the running or last scan',
      response: scanProgressSchema,
      handle: () => library.scanStatus(),
    }),
    tracks: endpoint({
      summary: 'Tracks by name',
      params: listQuery,
      response: trackPage,
      handle: ({ params, request }) => library.listTracks(callerOf(request), params),
    }),
    albums: endpoint({
      summary: 'Albums by name',
      params: listQuery,
      response: albumPage,
      handle: ({ params, request }) => library.listAlbums(callerOf(request), params),
    }),
    artists: endpoint({
      summary: 'Artists by name',
      params: listQuery,
      response: artistPage,
      handle: ({ params, request }) => library.listArtists(callerOf(request), params),
    }),
    track: endpoint({
      summary: 'A track',
      path: idPath,
      response: trackSchema,
      errors: { 404: ['track_not_found'] },
      handle: ({ path, request }) => library.getTrack(callerOf(request), path.id),
    }),
    album: endpoint({
      summary: 'An album',
      path: idPath,
      response: albumSchema,
      errors: { 404: ['album_not_found'] },
      handle: ({ path, request }) => library.getAlbum(callerOf(request), path.id),
    }),
    artist: endpoint({
      summary: 'An artist',
      path: idPath,
      response: artistSchema,
      errors: { 404: ['artist_not_found'] },
      handle: ({ path, request }) => library.getArtist(callerOf(request), path.id),
    }),
  };
}

export function collectionHandlers(collections: CollectionService, kind: CollectionKind) {
  const plural = kind === 'playlist' ? 'Playlists' : 'Collections';
  return {
    list: endpoint({
      summary: `${plural} by name`,
      params: listQuery,
      response: collectionPage,
      handle: ({ params }) => collections.list(kind, params),
    }),
    get: endpoint({
      summary: `A ${kind}`,
      path: idPath,
      response: collectionSchema,
      errors: { 404: [`${kind}_not_found`] },
      handle: ({ path }) => collections.get(kind, path.id),
    }),
    create: endpoint({
      summary: `Create a ${kind}`,
      params: {
        name: text(256),
        description: text(4096).optional(),
        trackIds: stringList(10_000, 64)
          .optional()
          .meta({ description: 'Track ids: a JSON array, a repeated parameter or a comma-separated list' }),
      },
      status: 201,
      response: collectionSchema,
      responseDescription: `The new ${kind}`,
      handle: ({ params, request }) => collections.create(kind, callerOf(request), params),
    }),
  };
}
