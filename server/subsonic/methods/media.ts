import type { Image } from '../../services/artwork-service.js';
import type { ImageResizer } from '../../services/image-resizer.js';
import type { Services } from '../../services/index.js';
import { notFoundError, SubsonicError, SUBSONIC_CODES } from '../errors.js';
import { callerOf, type BinaryReply, type MethodRequest } from '../types.js';

/** The playback colleague's stream and download services are not part of this Melon yet. */
const notYet = (what: string) =>
  new SubsonicError(SUBSONIC_CODES.generic, `${what} is not available in this Melon yet`);

export function mediaMethods(services: Services, resizer: ImageResizer) {
  const { library, artwork } = services;

  /**
   * A coverArt id: `tr-<track>` (its first picture), `al-<album>` (the first picture of its first
   * track that has one), `ar-<artist>` (the artist's first profile picture, else their first album's
   * cover), `pl-<playlist>` (its artwork); a bare track, album or artist id is accepted too. Anything
   * without a picture gets the default artwork, as the native API does.
   */
  async function coverImage(request: MethodRequest, coverId: string): Promise<Image> {
    const match = /^(tr|al|ar|pl)-(.+)$/.exec(coverId);
    const [kind, id] = match ? [match[1]!, match[2]!] : ['', coverId];
    if (kind === 'tr' || (kind === '' && library.hasTrack(id))) return artwork.trackImage(id, 0);
    if (kind === 'al' || (kind === '' && library.hasAlbum(id))) {
      library.requireAlbum(id);
      const track = library.albumTracks(id).find((candidate) => candidate.artwork.length > 0);
      return track ? artwork.trackImage(track.id, 0) : artwork.defaultImage();
    }
    if (kind === 'ar' || (kind === '' && library.hasArtist(id))) {
      const artist = library.getArtist(callerOf(request), id);
      if (artist.pfpCount > 0) return artwork.artistImage('pfp', id, 0);
      const album = library.artistAlbums(id)[0];
      return album ? coverImage(request, `al-${album.id}`) : artwork.defaultImage();
    }
    if (kind === 'pl') return artwork.singleImage('playlist', id);
    throw notFoundError(`Cover art '${coverId}' not found`);
  }

  return {
    getCoverArt: async (request: MethodRequest): Promise<BinaryReply> => {
      const { params } = request;
      const size = params.optionalInt('size', 1, 100_000);
      const original = await coverImage(request, params.required('id'));
      const image = size === undefined ? original : await resizer.resize(original, size);
      const headers = { ETag: image.etag, 'Cache-Control': 'private, max-age=86400' };
      if (request.ifNoneMatch === image.etag)
        return { binary: true, status: 304, body: Buffer.alloc(0), type: image.mime, headers };
      return { binary: true, body: image.bytes, type: image.mime, headers };
    },

    stream: (): BinaryReply => {
      throw notYet('Streaming through the Subsonic API');
    },

    download: (): BinaryReply => {
      throw notYet('Downloading through the Subsonic API');
    },
  };
}
