import type { CollectionService } from '../../services/collection-service.js';
import type { LibraryService } from '../../services/library-service.js';
import type { CollectionKind } from '../../store/collections-repo.js';
import { paging, parseParams, stringList, text } from '../params.js';
import { callerOf, ok, type Request } from '../types.js';

const listQuery = { q: text(256).optional(), ...paging };

export function libraryHandlers(library: LibraryService) {
  return {
    startScan: () => ok(library.startScan(), 202),
    scanStatus: () => ok(library.scanStatus()),
    tracks: (request: Request) =>
      ok(library.listTracks(callerOf(request), parseParams(listQuery, request.params))),
    albums: (request: Request) =>
      ok(library.listAlbums(callerOf(request), parseParams(listQuery, request.params))),
    artists: (request: Request) =>
      ok(library.listArtists(callerOf(request), parseParams(listQuery, request.params))),
    track: (request: Request) => ok(library.getTrack(callerOf(request), request.path.id ?? '')),
    album: (request: Request) => ok(library.getAlbum(callerOf(request), request.path.id ?? '')),
    artist: (request: Request) => ok(library.getArtist(callerOf(request), request.path.id ?? '')),
  };
}

export function collectionHandlers(collections: CollectionService, kind: CollectionKind) {
  return {
    list: (request: Request) => ok(collections.list(kind, parseParams(listQuery, request.params))),
    get: (request: Request) => ok(collections.get(kind, request.path.id ?? '')),
    create: async (request: Request) => {
      const params = parseParams(
        { name: text(256), description: text(4096).optional(), trackIds: stringList(10_000, 64).optional() },
        request.params,
      );
      return ok(await collections.create(kind, callerOf(request), params), 201);
    },
  };
}
