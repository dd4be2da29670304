import { z } from 'zod';
import { count, utc } from './common.js';

/** Listening history in and out (docs/API.md, Listening history): imports and the year in review. */

/** What made an import's file. */
export const importSourceSchema = z.enum(['listenbrainz', 'lastfm', 'spotify'], {
  error: 'must be listenbrainz, lastfm or spotify',
});

/** Unmatched listens grouped by artist and album. */
export const missingListensSchema = z
  .object({
    listens: count().meta({ description: 'All the unmatched listens of the user' }),
    groups: z.array(z.object({ artist: z.string(), album: z.string().nullable(), listens: count() })),
  })
  .meta({ id: 'MissingListens' });
export type MissingListens = z.output<typeof missingListensSchema>;

/** The answer of starting an import. */
export const importStartedSchema = z
  .object({
    id: z.string(),
    source: importSourceSchema.meta({
      description: 'The service the file is from, recognised from its content',
    }),
    takenAs: z
      .string()
      .meta({ description: 'What the file was taken for, e.g. "Last.fm CSV of lastfm.ghan.nl"' }),
  })
  .meta({ id: 'ImportStarted' });
export type ImportStarted = z.output<typeof importStartedSchema>;

export const importProgressSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    source: importSourceSchema,
    takenAs: z.string().nullable(),
    status: z.enum(['queued', 'running', 'done', 'failed']),
    done: z.boolean(),
    entriesRead: count(),
    bytesRead: count().meta({ description: 'Bytes read of the file (unpacked, for a ZIP)' }),
    bytesTotal: count().meta({
      description: 'Bytes there are to read: bytesRead / bytesTotal is how far it is',
    }),
    matched: count(),
    unmatched: count(),
    duplicates: count(),
    refused: count(),
    ignored: count(),
    problems: z.array(
      z.object({
        entry: z.int().min(1),
        reason: z.string(),
        file: z.string().optional().meta({ description: 'The file in the ZIP the entry is in' }),
      }),
    ),
    error: z.string().nullable(),
    createdAt: utc(),
    finishedAt: utc().nullable(),
  })
  .meta({ id: 'ImportProgress' });
export type ImportProgress = z.output<typeof importProgressSchema>;

const ref = z.object({ id: z.string(), name: z.string().nullable() });
const ranked = { rank: z.int().min(1), plays: count(), listeningMs: count() };
const day = z.string().meta({ description: 'A local date, YYYY-MM-DD' });
export const yearInReviewSchema = z
  .object({
    year: z.int(),
    household: z.boolean(),
    userIds: z.array(z.string()),
    years: z.array(z.int()).meta({ description: 'The years with plays of these users, latest first' }),
    totalMs: count(),
    plays: count(),
    skips: count(),
    skipRate: z.number().min(0).max(1),
    topTracks: z.array(
      z.object({ id: z.string(), name: z.string().nullable(), artists: z.array(ref), ...ranked }),
    ),
    topAlbums: z.array(z.object({ id: z.string(), name: z.string().nullable(), ...ranked })),
    topArtists: z.array(z.object({ id: z.string(), name: z.string().nullable(), ...ranked })),
    topGenres: z.array(z.object({ genre: z.string(), ...ranked })),
    months: z.array(z.object({ month: z.int().min(1).max(12), plays: count(), listeningMs: count() })),
    hours: z.array(z.object({ hour: z.int().min(0).max(23), plays: count(), listeningMs: count() })),
    mostPlayedDay: z.object({ date: day, plays: count() }).nullable(),
    longestStreak: z.object({ days: z.int().min(1), from: day, to: day }).nullable(),
    topTrackOfADay: z
      .object({
        date: day,
        plays: count(),
        track: z.object({ id: z.string(), name: z.string().nullable(), artists: z.array(ref) }),
      })
      .nullable(),
    newArtists: z.object({
      count: count(),
      items: z.array(z.object({ id: z.string(), name: z.string().nullable(), plays: count() })),
    }),
    firstPlay: z
      .object({
        at: utc(),
        track: z.object({ id: z.string(), name: z.string().nullable(), artists: z.array(ref) }),
      })
      .nullable()
      .meta({ description: "The year's first play (the smallest track id of plays at the same instant)" }),
    members: z
      .array(
        z.object({
          userId: z.string(),
          username: z.string(),
          plays: count(),
          listeningMs: count(),
          topArtist: z.object({ id: z.string(), name: z.string().nullable(), plays: count() }).nullable(),
        }),
      )
      .meta({
        description:
          'A household review: each member with plays in the year, most plays first (no Pass accounts); empty for one listener',
      }),
  })
  .meta({ id: 'YearInReview' });

export type YearInReview = z.output<typeof yearInReviewSchema>;
