import { z } from 'zod';
import { count, utc } from './common.js';
import { albumSchema, artistSchema, trackSchema } from './library.js';

/** The caller's saved play queue (the one Subsonic's getPlayQueue and savePlayQueue use). */
export const playQueueSchema = z
  .object({
    tracks: z
      .array(trackSchema)
      .meta({ description: 'In play order; tracks gone from the library are left out' }),
    current: z.string().nullable().meta({ description: 'The id of the track playing when it was saved' }),
    positionMs: count().meta({ description: 'Where in the current track' }),
    changedAt: utc().nullable().meta({ description: 'When it was saved; null when none is saved' }),
    changedBy: z.string().nullable().meta({ description: 'The player that saved it' }),
  })
  .meta({ id: 'PlayQueue' });
export type PlayQueue = z.output<typeof playQueueSchema>;

export const savedSchema = z.object({ saved: z.literal(true) });

const starredAt = { starredAt: utc() };
export const favouritesSchema = z
  .object({
    tracks: z.array(trackSchema.extend(starredAt)),
    albums: z.array(albumSchema.extend(starredAt)),
    artists: z.array(artistSchema.extend(starredAt)),
  })
  .meta({ id: 'Favourites', description: "The caller's starred items, the latest starred first." });
export type Favourites = z.output<typeof favouritesSchema>;

export const starResultSchema = z.object({
  starred: z.boolean(),
  id: z.string(),
  kind: z.enum(['track', 'album', 'artist']),
});
export type StarResult = z.output<typeof starResultSchema>;

/** The orders the albums list offers. */
export const ALBUM_SORTS = ['name', 'artist', 'year', 'added', 'played'] as const;
export type AlbumSort = (typeof ALBUM_SORTS)[number];

export const genreSchema = z
  .object({ name: z.string(), albumCount: count(), trackCount: count() })
  .meta({ id: 'Genre' });
export type Genre = z.output<typeof genreSchema>;

export const nowPlayingSchema = z
  .object({
    userId: z.string(),
    username: z.string(),
    track: trackSchema,
    client: z.string().nullable(),
    startedAt: utc(),
  })
  .meta({ id: 'NowPlaying' });
export type NowPlaying = z.output<typeof nowPlayingSchema>;
