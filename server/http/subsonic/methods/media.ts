import type { Image } from '../../../services/artwork-service.js';
import type { ImageResizer } from '../../../services/image-resizer.js';
import type { Services } from '../../../services/create-services.js';
import { downloadReply, streamReply } from '../../audio-reply.js';
import { imageReply } from '../../image-reply.js';
import { StreamBody, type Reply } from '../../endpoint.js';
import {
  MIN_KBPS,
  type StreamOptions,
  type TranscodeFormat,
} from '../../../services/playback/stream-service.js';
import { invalidParameter } from '../../../errors.js';
import { notFoundError } from '../errors.js';
import type { SubsonicParams } from '../params.js';
import { callerOf, type BinaryReply, type MethodRequest } from '../types.js';

/** Subsonic's `format` names for what Melon's stream service makes; others mean "no preference". */
const FORMATS: Record<string, TranscodeFormat> = {
  mp3: 'mp3',
  opus: 'opus',
  ogg: 'opus',
  oga: 'opus',
  aac: 'aac',
  m4a: 'aac',
  mp4: 'aac',
};

/**
 * A stream request in the stream service's terms: `format=raw` is the original whatever else is
 * asked; `maxBitRate` 0 is no limit, and below MIN_KBPS it is MIN_KBPS (the lowest a transcode can
 * honour).
 */
export function streamOptions(params: SubsonicParams): StreamOptions {
  const format = params.string('format')?.trim().toLowerCase() ?? '';
  const maxBitRate = params.int('maxBitRate', 0, 0, 100_000);
  const offset = params.string('timeOffset')?.trim() ?? '';
  const timeOffset = offset === '' ? undefined : seconds(offset);
  if (format === 'raw') return { timeOffset };
  return {
    timeOffset,
    format: FORMATS[format],
    maxBitRate: maxBitRate === 0 ? undefined : Math.max(MIN_KBPS, maxBitRate),
  };
}

/** `timeOffset` in seconds: Subsonic's whole seconds, or with a fraction (up to milliseconds). */
function seconds(value: string): number {
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(value))
    throw invalidParameter('timeOffset', 'timeOffset must be a number of seconds');
  return Number(value);
}

/** A native reply (http/audio-reply.ts) as the Subsonic router sends it. */
function binary(reply: Reply): BinaryReply {
  const body =
    reply.body instanceof StreamBody ? reply.body.stream : Buffer.isBuffer(reply.body) ? reply.body : null;
  return {
    binary: true,
    status: reply.status ?? 200,
    body,
    length: reply.body instanceof StreamBody ? reply.body.length : null,
    type: reply.type,
    headers: reply.headers ?? {},
  };
}

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
    if (kind === 'al' || (kind === '' && library.has('album', id))) {
      library.requireAlbum(id);
      const track = library.albumTracks(id).find((candidate) => candidate.artwork.length > 0);
      return track ? artwork.trackImage(track.id, 0) : artwork.defaultImage();
    }
    if (kind === 'ar' || (kind === '' && library.has('artist', id))) {
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
      // A picture that cannot be resized (too many pixels, not decodable) shows the default art.
      const image =
        size === undefined
          ? original
          : ((await resizer.resize(original, size)) ??
            (await resizer.resize(await artwork.defaultImage(), size)) ??
            (await artwork.defaultImage()));
      return binary(imageReply(request.http, image));
    },

    /** As `GET /api/tracks/{id}/stream`: the original (ranges, validators) or a transcode. */
    stream: async (request: MethodRequest): Promise<BinaryReply> => {
      const id = request.params.required('id');
      return binary(await streamReply(services.stream, request.http, id, streamOptions(request.params)));
    },

    /** As `GET /api/tracks/{id}/download`: the original file with its name. */
    download: async (request: MethodRequest): Promise<BinaryReply> =>
      binary(await downloadReply(services.stream, request.http, request.params.required('id'))),
  };
}
