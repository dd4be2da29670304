import { z } from 'zod';
import { count, namedRef, pageOf } from './common.js';

/** The ratings part of a track, album or artist (docs/API.md, Ratings). */
const ratingSummary = {
  userRating: z.int().min(1).max(10).nullable().meta({ description: "The caller's rating" }),
  averageRating: z.number().min(0).max(10).nullable(),
  ratingCount: count(),
};
export type RatingSummary = z.output<z.ZodObject<typeof ratingSummary>>;

/** One picture embedded in an audio file; `pos` is its place among the file's pictures. */
export const artworkInfoSchema = z
  .object({
    pos: count(),
    type: z.string(),
    mime: z.string(),
    width: count().nullable(),
    height: count().nullable(),
    size: count(),
  })
  .meta({ id: 'ArtworkInfo', description: 'A picture embedded in the audio file.' });
export type ArtworkInfo = z.output<typeof artworkInfoSchema>;

export const trackSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    album: namedRef.nullable(),
    artist: z.string().meta({
      description: 'The artist as credited: the ARTIST tag whole ("Simon & Garfunkel", "A feat. B")',
    }),
    artists: z.array(namedRef).meta({ description: 'The separate artists the credit names' }),
    genres: z.array(z.string()),
    durationMs: count(),
    trackNumber: z.int().nullable(),
    discNumber: z.int().nullable(),
    year: z.int().nullable(),
    format: z.string(),
    artwork: z.array(artworkInfoSchema),
    path: z.string().optional().meta({ description: 'The file, shown to Admins only' }),
    ...ratingSummary,
  })
  .meta({ id: 'Track' });
export type Track = z.output<typeof trackSchema>;

export const albumSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    artists: z.array(namedRef),
    year: z.int().nullable(),
    trackCount: count(),
    durationMs: count(),
    genres: z.array(z.string()),
    ...ratingSummary,
  })
  .meta({ id: 'Album' });
export type Album = z.output<typeof albumSchema>;

export const artistSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    albumCount: count(),
    trackCount: count(),
    pfpCount: count(),
    bannerCount: count(),
    ...ratingSummary,
  })
  .meta({ id: 'Artist' });
export type Artist = z.output<typeof artistSchema>;

export const trackPageSchema = pageOf(trackSchema, 'TrackPage');
/** A list's tracks in its order, in one answer however long the list is. */
export const trackListSchema = z.object({ items: z.array(trackSchema) }).meta({
  id: 'TrackList',
  description: 'In the list’s order; a track no longer in the library is left out',
});
export type TrackList = z.output<typeof trackListSchema>;
export const albumPageSchema = pageOf(albumSchema, 'AlbumPage');
export const artistPageSchema = pageOf(artistSchema, 'ArtistPage');

export const scanProblemSchema = z.object({ path: z.string(), reason: z.string() }).meta({
  id: 'ScanProblem',
  description: 'Something below the music folders that is not in the library, and why.',
});
export type ScanProblem = z.output<typeof scanProblemSchema>;

/** The scan's progress with its problems in path order: the first 100, and how many in all. */
export const scanStatusSchema = z
  .object({
    running: z.boolean(),
    filesSeen: count(),
    filesTotal: count(),
    added: count(),
    updated: count(),
    removed: count(),
    errors: z.array(scanProblemSchema).meta({ description: 'Every problem of the scan, in path order.' }),
    problems: z.array(scanProblemSchema).max(100).meta({
      description:
        'The first 100 problems in path order: files Melon could not read, links it did not follow, folders it could not open.',
    }),
    problemCount: count().meta({ description: 'How many problems in all.' }),
  })
  .meta({ id: 'ScanProgress' });
export type ScanStatus = z.output<typeof scanStatusSchema>;

export const musicFolderSchema = z
  .object({ path: z.string(), status: z.enum(['ok', 'missing', 'unreadable']) })
  .meta({ id: 'MusicFolder' });
export type MusicFolder = z.output<typeof musicFolderSchema>;
export type FolderStatus = MusicFolder['status'];
