import {
  deletedArtworkSchema,
  deletedDefaultArtworkSchema,
  deletedPictureSchema,
  uploadedArtworkSchema,
} from '../../../contract/artwork.js';
import type { ArtworkService, UploadTarget } from '../../../services/artwork-service.js';
import { id, idPath, integer } from '../../params.js';
import { endpoint, rawEndpoint, type ErrorCodes, type ResponseDoc } from '../../endpoint.js';
import { imageReply } from '../../image-reply.js';

const owner = { id: id() };
const position = {
  id: id(),
  pos: integer(0, 1_000_000).meta({ description: 'The position of the picture, from 0' }),
};
const positionPath = { ...idPath, pos: position.pos };

const cacheHeaders = {
  ETag: 'The validator for If-None-Match',
  'Cache-Control': 'private, no-cache',
};
const imageResponses: Record<number, ResponseDoc> = {
  200: {
    description:
      'The image in its type sniffed from its bytes (JPEG, PNG, GIF, WebP, AVIF or BMP); the default artwork when there is none',
    mediaType: 'image/*',
    headers: cacheHeaders,
  },
  304: { description: "The client's copy (If-None-Match) is current", headers: cacheHeaders },
};

/** Tells the settings page whether the default can be deleted (only a custom one can). */
const DEFAULT_SOURCE = '`custom` (an Admin uploaded it; it can be deleted) or `built-in`';

const UPLOAD_FILE = {
  file: 'A JPEG, PNG or WebP image (recognised by its bytes), at most 20 MiB',
};
const UPLOAD_ERRORS: ErrorCodes = { 415: ['unsupported_media_type'] };

export function artworkHandlers(artwork: ArtworkService) {
  const upload = (target: Exclude<UploadTarget, 'default-art'>, summary: string, notFound: string) =>
    endpoint({
      summary,
      params: owner,
      files: UPLOAD_FILE,
      status: 201,
      response: uploadedArtworkSchema,
      errors: { ...UPLOAD_ERRORS, 404: [notFound] },
      handle: ({ params, request }) => artwork.upload(target, params.id, request.files.file!.tempPath),
    });
  const artistImage = (kind: 'pfp' | 'banner') =>
    rawEndpoint({
      summary: `An artist's ${kind === 'pfp' ? 'profile picture' : 'banner'}`,
      path: positionPath,
      responses: imageResponses,
      errors: { 404: ['artist_not_found'] },
      handle: async ({ path, request }) =>
        imageReply(request, await artwork.artistImage(kind, path.id, path.pos)),
    });
  const singleImage = (kind: 'playlist' | 'collection') =>
    rawEndpoint({
      summary: `A ${kind}'s artwork`,
      path: idPath,
      responses: imageResponses,
      errors: { 404: [`${kind}_not_found`] },
      handle: async ({ path, request }) => imageReply(request, await artwork.singleImage(kind, path.id)),
    });
  const deleteArtist = (kind: 'pfp' | 'banner') =>
    endpoint({
      summary: `Delete an artist's ${kind === 'pfp' ? 'profile picture' : 'banner'}`,
      params: position,
      response: deletedPictureSchema,
      errors: { 400: ['invalid_position'], 404: ['artist_not_found'] },
      handle: ({ params }) => artwork.deleteArtistImage(kind, params.id, params.pos),
    });
  const deleteSingle = (kind: 'playlist' | 'collection') =>
    endpoint({
      summary: `Delete a ${kind}'s artwork`,
      params: owner,
      response: deletedArtworkSchema,
      errors: { 404: [`${kind}_not_found`, 'artwork_not_found'] },
      handle: ({ params }) => artwork.deleteSingle(kind, params.id),
    });
  return {
    deleteTrackArt: endpoint({
      summary: 'Delete a picture embedded in a track, rewriting the file (the audio is untouched)',
      params: position,
      response: deletedPictureSchema,
      errors: {
        400: ['invalid_position', 'unsupported_format'],
        404: ['track_not_found', 'track_file_not_found'],
        409: ['file_not_writable'],
      },
      handle: ({ params }) => artwork.deleteTrackArt(params.id, params.pos),
    }),
    deleteArtistPfp: deleteArtist('pfp'),
    deleteArtistBanner: deleteArtist('banner'),
    deletePlaylistArt: deleteSingle('playlist'),
    deleteCollectionArt: deleteSingle('collection'),
    deleteDefaultArt: endpoint({
      summary: 'Delete the custom default artwork (the built-in one is used again)',
      response: deletedDefaultArtworkSchema,
      errors: { 404: ['artwork_not_found'] },
      handle: () => artwork.deleteDefault(),
    }),

    uploadArtistPfp: upload('artist-pfp', 'Add an artist profile picture', 'artist_not_found'),
    uploadArtistBanner: upload('artist-banner', 'Add an artist banner', 'artist_not_found'),
    uploadPlaylistArt: upload('playlist-art', "Set a playlist's artwork", 'playlist_not_found'),
    uploadCollectionArt: upload('collection-art', "Set a collection's artwork", 'collection_not_found'),
    uploadDefaultArt: endpoint({
      summary: 'Set the custom default artwork',
      files: UPLOAD_FILE,
      status: 201,
      response: uploadedArtworkSchema,
      errors: UPLOAD_ERRORS,
      handle: ({ request }) => artwork.upload('default-art', null, request.files.file!.tempPath),
    }),

    trackImage: rawEndpoint({
      summary: 'A picture embedded in a track',
      path: positionPath,
      responses: imageResponses,
      errors: { 404: ['track_not_found', 'track_file_not_found', 'artwork_not_found'] },
      handle: async ({ path, request }) => imageReply(request, await artwork.trackImage(path.id, path.pos)),
    }),
    artistPfp: artistImage('pfp'),
    artistBanner: artistImage('banner'),
    playlistImage: singleImage('playlist'),
    collectionImage: singleImage('collection'),
    defaultImage: rawEndpoint({
      summary: 'The default artwork (the custom one, else the built-in one)',
      responses: {
        200: { ...imageResponses[200]!, headers: { ...cacheHeaders, 'X-Melon-Artwork': DEFAULT_SOURCE } },
        304: { ...imageResponses[304]!, headers: { ...cacheHeaders, 'X-Melon-Artwork': DEFAULT_SOURCE } },
      },
      handle: async ({ request }) => {
        const reply = imageReply(request, await artwork.defaultImage());
        const source = artwork.hasCustomDefault() ? 'custom' : 'built-in';
        return { ...reply, headers: { ...reply.headers, 'X-Melon-Artwork': source } };
      },
    }),
  };
}
