import { z } from 'zod';
import { albumPageSchema, albumSchema, trackSchema } from '../../../contract/library.js';
import {
  ALBUM_SORTS,
  favouritesSchema,
  genreSchema,
  nowPlayingSchema,
  playQueueSchema,
  savedSchema,
  starResultSchema,
} from '../../../contract/listening.js';
import type { FavouritesService } from '../../../services/favourites-service.js';
import type { BrowseService } from '../../../services/playback/browse-service.js';
import { MAX_QUEUE_TRACKS, type PlayQueueService } from '../../../services/play-queue-service.js';
import { id, idPath, integer, listQuery, stringList, text } from '../../params.js';
import { byIdEndpoint, callerOf, endpoint, rawEndpoint } from '../../endpoint.js';
import { imageReply } from '../../image-reply.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The largest `size` a cover may ask for; above the last step the original is sent. */
const MAX_COVER_EDGE = 2048;
const device = text(128).optional().meta({ description: 'The player, 1–128 characters' });
const kind = z
  .enum(['track', 'album', 'artist'], { error: 'must be track, album or artist' })
  .meta({ description: 'What to star' });

/** What a player needs beyond the library's lists: orders, tracks of an album, queue, favourites. */
export function listeningHandlers(
  browse: BrowseService,
  playQueues: PlayQueueService,
  favourites: FavouritesService,
) {
  const star = (starred: boolean) =>
    endpoint({
      summary: starred ? 'Star a track, album or artist' : 'Unstar a track, album or artist',
      description: starred
        ? 'Starring an item twice keeps the first date. The same favourites as Subsonic’s `star`.'
        : 'Unstarring an item that is not starred, or that left the library, is fine.',
      params: { kind, id: id() },
      response: starResultSchema,
      errors: starred ? { 404: ['track_not_found', 'album_not_found', 'artist_not_found'] } : {},
      handle: async ({ params, request }) => {
        const item = { kind: params.kind, id: params.id };
        if (starred) await favourites.star(callerOf(request), [item]);
        else await favourites.unstar(callerOf(request), [item]);
        return { starred, ...item };
      },
    });
  const cover = (kind: 'album' | 'artist') =>
    rawEndpoint({
      summary: kind === 'album' ? "An album's cover" : "An artist's picture",
      description:
        kind === 'album'
          ? 'The first picture of the first track that has one; the default artwork when none has.'
          : 'Their first stored picture, else the cover of their first album, else the default artwork.',
      path: idPath,
      params: {
        size: integer(1, MAX_COVER_EDGE).optional().meta({
          description:
            'Scale down to fit a square of at least this many pixels (64, 128, 256, 512 or 1024; never up)',
        }),
      },
      responses: {
        200: {
          description: 'The image, in its own type',
          mediaType: 'image/*',
          headers: { ETag: 'The validator' },
        },
        304: {
          description: "The client's copy (If-None-Match) is current",
          headers: { ETag: 'The validator' },
        },
      },
      errors: { 404: [`${kind}_not_found`] },
      handle: async ({ path, params, request }) =>
        imageReply(request, await browse.cover(callerOf(request), kind, path.id, params.size)),
    });
  return {
    albumCover: cover('album'),
    artistCover: cover('artist'),
    albums: endpoint({
      summary: 'Albums in an order a listener browses by',
      description:
        '`sort`: name (default), artist (the first album artist, then name), year (newest first), ' +
        'added (newest files first), played (the caller’s most played first, then by name).',
      params: {
        ...listQuery,
        sort: z
          .enum(ALBUM_SORTS, { error: `must be one of ${ALBUM_SORTS.join(', ')}` })
          .default('name')
          .meta({ description: 'The order' }),
        genre: text(256).optional().meta({ description: 'Only albums with this genre (any case)' }),
      },
      response: albumPageSchema,
      handle: ({ params, request }) => browse.albums(callerOf(request), params),
    }),
    albumTracks: byIdEndpoint({
      summary: "An album's tracks in play order (disc, track number)",
      response: z.array(trackSchema),
      notFound: 'album_not_found',
      handle: (caller, id) => browse.albumTracks(caller, id),
    }),
    artistAlbums: byIdEndpoint({
      summary: "An artist's albums, the newest first",
      response: z.array(albumSchema),
      notFound: 'artist_not_found',
      handle: (caller, id) => browse.artistAlbums(caller, id),
    }),
    artistTopTracks: byIdEndpoint({
      summary: "An artist's tracks the caller played most, then the rest by name",
      params: { count: integer(1, 100).default(10).meta({ description: 'How many' }) },
      response: z.array(trackSchema),
      notFound: 'artist_not_found',
      handle: (caller, id, params) => browse.artistTopTracks(caller, id, params.count),
    }),
    genres: endpoint({
      summary: 'Every genre of the library with its album and track counts, by name',
      response: z.array(genreSchema),
      handle: () => browse.genres(),
    }),
    playQueue: endpoint({
      summary: "The caller's saved play queue",
      description:
        'The queue Subsonic’s `getPlayQueue` and `savePlayQueue` read and write, so playback moves between ' +
        'the page and a phone. With none saved: no tracks and `changedAt` null.',
      response: playQueueSchema,
      handle: ({ request }) => browse.playQueue(callerOf(request)),
    }),
    savePlayQueue: endpoint({
      summary: "Replace the caller's play queue",
      description: 'No tracks clears the queue.',
      params: {
        trackIds: stringList(MAX_QUEUE_TRACKS, 64).default([]).meta({
          description:
            'Track ids in play order: a JSON array, a repeated parameter or a comma-separated list',
        }),
        current: id().optional().meta({ description: 'The track playing, one of trackIds' }),
        positionMs: integer(0, DAY_MS).default(0).meta({ description: 'Where in the current track, in ms' }),
        device,
      },
      response: savedSchema,
      errors: { 404: ['track_not_found'] },
      handle: async ({ params, request }) => {
        await playQueues.save(callerOf(request), {
          trackIds: params.trackIds,
          current: params.current ?? null,
          positionMs: params.positionMs,
          client: params.device ?? null,
        });
        return { saved: true as const };
      },
    }),
    favourites: endpoint({
      summary: "The caller's starred tracks, albums and artists",
      response: favouritesSchema,
      handle: ({ request }) => browse.favouritesOf(callerOf(request)),
    }),
    star: star(true),
    unstar: star(false),
    announce: endpoint({
      summary: 'Say that the caller started a track',
      description:
        'Shows in “now playing” (here and Subsonic’s `getNowPlaying`) until the track’s length has passed; not a play.',
      params: { id: id().meta({ description: 'The track' }), device },
      response: z.object({ announced: z.literal(true) }),
      errors: { 404: ['track_not_found'] },
      handle: ({ params, request }) => browse.announce(callerOf(request), params.id, params.device ?? null),
    }),
    nowPlaying: endpoint({
      summary: 'Who is playing what now',
      description:
        'The caller and every listener whose statistics the caller may read, the latest start first.',
      response: z.array(nowPlayingSchema),
      handle: ({ request }) => browse.playingNow(callerOf(request)),
    }),
  };
}
