import type { ArtworkService, Image, UploadTarget } from '../../services/artwork-service.js';
import { AppError } from '../../errors.js';
import { integer, parseParams, text } from '../params.js';
import { ok, type Reply, type Request } from '../types.js';

const owner = { id: text(1024) };
const position = { id: text(1024), pos: integer(0, 1_000_000) };

/** Image bytes with their real type and an ETag; 304 when the client's copy is current. */
function imageReply(request: Request, image: Image): Reply {
  const headers = { ETag: image.etag, 'Cache-Control': 'private, no-cache' };
  if (request.ifNoneMatch === image.etag) return { status: 304, body: null, headers };
  return { status: 200, body: image.bytes, type: image.mime, headers };
}

/** A path segment position: the same rule as the `pos` parameter. */
function pathPosition(request: Request): number {
  return parseParams({ pos: integer(0, 1_000_000) }, { pos: request.path.pos }).pos;
}

export function artworkHandlers(artwork: ArtworkService) {
  const upload = (target: UploadTarget) => async (request: Request) => {
    const file = request.files.file;
    if (!file)
      throw new AppError(400, 'invalid_parameter', "The multipart field 'file' is required", {
        parameter: 'file',
      });
    const ownerId = target === 'default-art' ? null : parseParams(owner, request.params).id;
    return ok(await artwork.upload(target, ownerId, file.tempPath), 201);
  };
  return {
    deleteTrackArt: async (request: Request) => {
      const { id, pos } = parseParams(position, request.params);
      return ok(await artwork.deleteTrackArt(id, pos));
    },
    deleteArtistPfp: async (request: Request) => {
      const { id, pos } = parseParams(position, request.params);
      return ok(await artwork.deleteArtistImage('pfp', id, pos));
    },
    deleteArtistBanner: async (request: Request) => {
      const { id, pos } = parseParams(position, request.params);
      return ok(await artwork.deleteArtistImage('banner', id, pos));
    },
    deletePlaylistArt: async (request: Request) =>
      ok(await artwork.deleteSingle('playlist', parseParams(owner, request.params).id)),
    deleteCollectionArt: async (request: Request) =>
      ok(await artwork.deleteSingle('collection', parseParams(owner, request.params).id)),
    deleteDefaultArt: async () => ok(await artwork.deleteDefault()),

    uploadArtistPfp: upload('artist-pfp'),
    uploadArtistBanner: upload('artist-banner'),
    uploadPlaylistArt: upload('playlist-art'),
    uploadCollectionArt: upload('collection-art'),
    uploadDefaultArt: upload('default-art'),

    trackImage: async (request: Request) =>
      imageReply(request, await artwork.trackImage(request.path.id ?? '', pathPosition(request))),
    artistPfp: async (request: Request) =>
      imageReply(request, await artwork.artistImage('pfp', request.path.id ?? '', pathPosition(request))),
    artistBanner: async (request: Request) =>
      imageReply(request, await artwork.artistImage('banner', request.path.id ?? '', pathPosition(request))),
    playlistImage: async (request: Request) =>
      imageReply(request, await artwork.singleImage('playlist', request.path.id ?? '')),
    collectionImage: async (request: Request) =>
      imageReply(request, await artwork.singleImage('collection', request.path.id ?? '')),
    defaultImage: async (request: Request) => imageReply(request, await artwork.defaultImage()),
  };
}
