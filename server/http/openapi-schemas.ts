import { z } from 'zod';
import { ACCOUNT_ROLES, ROLES } from '../domain/user.js';

/**
 * Response bodies the endpoints share. Each carries an `id`, so the OpenAPI document lists it once
 * under `components.schemas`. Endpoints type their handlers' results with these (types.ts
 * `endpoint`), and the API tests check every response against the document made from them.
 */

/** A date in a response: UTC, ISO 8601 with `Z` (docs/API.md, Conventions). */
export const utc = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/)
    .meta({ format: 'date-time', description: 'UTC, ISO 8601 with Z' });

/** A count or size in a response: an integer, 0 or more. */
export const count = () => z.int().min(0);

/**
 * `true` in every response (`deleted`, `logged`); the services type it as a boolean, so the
 * constant is stated for the document only.
 */
export const alwaysTrue = () => z.boolean().meta({ const: true });

export const problemSchema = z
  .object({
    type: z.literal('about:blank'),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string().meta({ description: 'For people; clients switch on `code`.' }),
    code: z.string().meta({ description: 'The stable identifier of the problem.' }),
    parameter: z.string().optional().meta({ description: 'The offending parameter (400s).' }),
    requestId: z.string().optional().meta({ description: 'The request id of a 500, also in the log.' }),
  })
  .meta({ id: 'Problem', description: 'An RFC 9457 problem document.' });

export const namedRef = z.object({ id: z.string(), name: z.string() }).meta({ id: 'NamedRef' });

/** A reference in statistics: the name is the library's, or the snapshot's, or null. */
export const statsRef = z
  .object({ id: z.string(), name: z.string().nullable() })
  .meta({ id: 'StatsRef', description: 'The name from the library, else from the play log snapshot.' });

export const tokenSchema = z
  .object({
    token: z.string(),
    tokenType: z.literal('Bearer'),
    expiresAt: utc(),
    // The service types the role as a string; the document names the roles it can be.
    role: z.string().meta({ enum: [...ROLES] }),
    userId: z.string().nullable().meta({ description: 'null for a Server token' }),
  })
  .meta({ id: 'Token' });

export const inviteSchema = z
  .object({
    id: z.string(),
    code: z.string().regex(/^[A-Z2-9]{4}$/),
    expiresAt: utc(),
    state: z.enum(['active', 'used', 'joined', 'expired', 'revoked']),
    joinedAs: z.string().nullable().meta({ description: 'The username the device made, once joined' }),
  })
  .meta({ id: 'Invite' });

export const userSchema = z
  .object({
    id: z.string(),
    username: z.string(),
    role: z.enum(ACCOUNT_ROLES),
    publicStats: z.boolean(),
    createdAt: utc(),
    lastLogin: utc().nullable(),
  })
  .meta({ id: 'User', description: 'A user; never the password hash.' });

const ratingSummary = {
  userRating: z.int().min(1).max(10).nullable().meta({ description: "The caller's rating" }),
  averageRating: z.number().min(0).max(10).nullable(),
  ratingCount: count(),
};

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

export const trackSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    album: namedRef.nullable(),
    artists: z.array(namedRef),
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

export const collectionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    trackIds: z.array(z.string()),
    owner: z.string().meta({ description: 'The user id of the creator' }),
    hasArtwork: z.boolean(),
  })
  .meta({ id: 'Collection', description: 'A playlist or a collection.' });

/** One page of a list endpoint (docs/API.md, Conventions). */
export const pageOf = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({ items: z.array(item), page: count(), count: z.int().min(1), total: count() })
    .meta({ id, description: 'A page of a list, ordered by name.' });

export const scanProblemSchema = z.object({ path: z.string(), reason: z.string() }).meta({
  id: 'ScanProblem',
  description: 'Something below the music folders that is not in the library, and why.',
});

export const scanProgressSchema = z
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

export const musicFolderSchema = z
  .object({ path: z.string(), status: z.enum(['ok', 'missing', 'unreadable']) })
  .meta({ id: 'MusicFolder' });

export const updateStatusSchema = z
  .object({
    state: z.enum(['idle', 'checking', 'downloading', 'verifying', 'installing', 'failed']),
    percent: z.number().min(0).max(100),
    bytesPerSecond: z.number().min(0),
    transferred: count(),
    total: count(),
    version: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'UpdateStatus' });
