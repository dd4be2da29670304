import { z } from 'zod';
import { searchResultSchema } from '../../../contract/playback.js';
import {
  MAX_KBPS,
  MIN_KBPS,
  TRANSCODE_FORMATS,
  type StreamService,
} from '../../../services/playback/stream-service.js';
import {
  SEARCH_DEFAULT_COUNT,
  SEARCH_MAX_COUNT,
  type SearchService,
} from '../../../services/playback/search-service.js';
import { downloadReply, streamReply } from '../../audio-reply.js';
import { idPath, integer, text } from '../../params.js';
import { callerOf, endpoint, rawEndpoint, type ResponseDoc } from '../../endpoint.js';

const fileHeaders = {
  'Accept-Ranges': 'bytes (originals); none (transcodes)',
  ETag: 'Strong validator of the file (originals)',
  'Last-Modified': 'The file’s modification time (originals)',
  'Content-Length': 'The size of the body (originals)',
};
const audio = (description: string): ResponseDoc => ({
  description,
  mediaType: 'audio/*',
  headers: fileHeaders,
});
const ranged: ResponseDoc = {
  description: 'One range of the original file (a single-range `Range` request)',
  mediaType: 'audio/*',
  headers: { ...fileHeaders, 'Content-Range': 'bytes <first>-<last>/<size>' },
};
const notModified: ResponseDoc = {
  description: "The client's copy (If-None-Match, If-Modified-Since) is current",
  headers: { ETag: fileHeaders.ETag },
};

const maxBitRate = integer(0, 10_000)
  .refine((kbps) => kbps === 0 || kbps >= MIN_KBPS, {
    message: `must be 0 (no limit) or at least ${MIN_KBPS}`,
  })
  .optional()
  .meta({
    description: `The highest bit rate the client wants, in kbps (${MIN_KBPS} or more; 0 = no limit)`,
  });

/** Seconds, as `90` or `90.5` (milliseconds at most); a day bounds it before the track's length does. */
const timeOffset = z
  .preprocess(
    (value) =>
      typeof value === 'string' && /^\d{1,6}(\.\d{1,3})?$/.test(value.trim()) ? Number(value) : value,
    z
      .number({ error: 'must be a number of seconds such as 90 or 90.5' })
      .min(0, 'must be at least 0')
      .max(86_400, 'must be at most 86400'),
  )
  .optional()
  .meta({
    description:
      'Start a transcode this many seconds into the track (at most its length); an original ignores it (use Range)',
  });

export function playbackHandlers(stream: StreamService, search: SearchService) {
  return {
    stream: rawEndpoint({
      summary: "A track's audio: the original file, or transcoded while it is sent",
      description:
        'Without parameters: the original file, with byte ranges and validators. With `format` and/or `maxBitRate`: ' +
        'transcoded by ffmpeg when the server has it and the original does not already fit (same format, average ' +
        `bit rate within maxBitRate). Formats: mp3 (audio/mpeg), opus (audio/ogg), aac (ADTS, audio/aac); without ` +
        `maxBitRate they are made at mp3 192, opus 128, aac 192 kbps (at most ${MAX_KBPS.mp3}/${MAX_KBPS.opus}/${MAX_KBPS.aac}). ` +
        '`timeOffset` starts a transcode that many seconds in (a player seeks a transcode by asking again). ' +
        'A browser’s <audio> element cannot send a header: this route also takes a stream token (from ' +
        '`POST /api/users/stream-token`, never a login token) as `access_token` in the query.',
      path: idPath,
      params: {
        format: z
          .enum(TRANSCODE_FORMATS, { error: 'must be mp3, opus or aac' })
          .optional()
          .meta({ description: 'Transcode to this format' }),
        maxBitRate,
        timeOffset,
      },
      responses: {
        200: audio('The audio: the original file, or a transcode (chunked, no Content-Length)'),
        206: ranged,
        304: notModified,
      },
      errors: {
        404: ['track_not_found', 'track_file_not_found'],
        416: ['range_not_satisfiable'],
        503: ['busy'],
      },
      handle: ({ path, params, request }) => streamReply(stream, request, path.id, params),
    }),
    download: rawEndpoint({
      summary: "A track's original file, as an attachment with its file name",
      path: idPath,
      responses: {
        200: {
          description: 'The original file, Content-Disposition: attachment (RFC 6266)',
          mediaType: 'audio/*',
          headers: {
            ...fileHeaders,
            'Content-Disposition': 'attachment; filename="…"; filename*=UTF-8\'\'…',
          },
        },
        206: ranged,
        304: notModified,
      },
      errors: { 404: ['track_not_found', 'track_file_not_found'], 416: ['range_not_satisfiable'] },
      handle: ({ path, request }) => downloadReply(stream, request, path.id),
    }),
    search: endpoint({
      summary: 'Tracks, albums and artists whose names match, best first',
      description:
        'Case- and accent-insensitive (`beyonce` finds `Beyoncé`). Names that start with the query come first, ' +
        'then names with a word that starts with it, then names that contain it; each group by name.',
      params: {
        q: text(256).meta({ description: 'Part of a name' }),
        count: integer(1, SEARCH_MAX_COUNT)
          .default(SEARCH_DEFAULT_COUNT)
          .meta({ description: 'The most of each kind' }),
      },
      response: searchResultSchema,
      handle: ({ params, request }) => search.search(callerOf(request), params.q, params.count),
    }),
  };
}
