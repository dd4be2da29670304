import { z } from 'zod';
import type { ExportService } from '../../services/history/export-service.js';
import type { ImportService } from '../../services/history/import-service.js';
import type { YearInReviewService } from '../../services/history/year-in-review.js';
import { count, utc } from '../openapi-schemas.js';
import { boolean, id, integer } from '../params.js';
import { callerOf, endpoint, rawEndpoint, StreamBody } from '../types.js';

const userId = id().optional();
const source = z.enum(['listenbrainz', 'lastfm', 'spotify'], {
  error: 'must be listenbrainz, lastfm or spotify',
});

const importProgress = z
  .object({
    id: z.string(),
    userId: z.string(),
    source,
    status: z.enum(['queued', 'running', 'done', 'failed']),
    done: z.boolean(),
    entriesRead: count(),
    matched: count(),
    unmatched: count(),
    duplicates: count(),
    refused: count(),
    ignored: count(),
    problems: z.array(z.object({ entry: z.int().min(1), reason: z.string() })),
    error: z.string().nullable(),
    createdAt: utc(),
    finishedAt: utc().nullable(),
  })
  .meta({ id: 'ImportProgress' });

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
    hours: z.array(z.object({ hour: z.int().min(0).max(23), plays: count() })),
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
  })
  .meta({ id: 'YearInReview' });

export type YearInReview = z.output<typeof yearInReviewSchema>;

/** The most an import upload may hold (a 300 MB Spotify or ListenBrainz export fits). */
export const IMPORT_UPLOAD_LIMIT_BYTES = 1024 * 1024 * 1024;

export function historyHandlers(imports: ImportService, exports: ExportService, review: YearInReviewService) {
  return {
    startImport: endpoint({
      summary: 'Import listening history from ListenBrainz, Last.fm or Spotify',
      description:
        'Stores the upload and imports it in the background; follow it with GET /api/stats/import/{id}. ' +
        'Admins may import for anyone, others only for themselves. Uploads up to 1 GiB.',
      params: {
        source: source.meta({ description: 'What made the file' }),
        userId: userId.meta({ description: 'Whose history (default: the caller)' }),
      },
      files: { file: 'The export: ListenBrainz JSON lines or JSON array, Last.fm CSV, Spotify JSON' },
      status: 202,
      response: z.object({ id: z.string() }).meta({ id: 'ImportStarted' }),
      errors: { 401: ['forbidden_role'], 404: ['user_not_found'] },
      handle: ({ params, request }) =>
        imports.start(callerOf(request), {
          userId: params.userId,
          source: params.source,
          tempPath: request.files.file!.tempPath,
        }),
    }),
    importStatus: endpoint({
      summary: "An import's progress and report",
      path: { id: z.string().min(1) },
      response: importProgress,
      errors: { 404: ['import_not_found'] },
      handle: ({ path, request }) => imports.status(callerOf(request), path.id),
    }),
    export: rawEndpoint({
      summary: "A user's plays as a download: ListenBrainz JSON lines, or CSV with skips",
      params: {
        userId: userId.meta({ description: 'Whose plays (default: the caller)' }),
        format: z
          .enum(['listenbrainz', 'csv'], { error: 'must be listenbrainz or csv' })
          .default('listenbrainz'),
      },
      responses: {
        200: {
          description: 'The plays, oldest first, streamed',
          mediaType: 'application/x-ndjson',
          otherMediaTypes: ['text/csv'],
          headers: { 'Content-Disposition': 'attachment; filename="melon-<user>.jsonl" (or .csv)' },
        },
      },
      errors: { 401: ['stats_private'], 404: ['user_not_found'] },
      handle: ({ params, request }) => {
        const { userId: whose, stream } = exports.export(callerOf(request), params);
        const csv = params.format === 'csv';
        return {
          body: new StreamBody(stream),
          type: csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
          headers: {
            'Content-Disposition': `attachment; filename="melon-${whose}.${csv ? 'csv' : 'jsonl'}"`,
          },
        };
      },
    }),
    yearInReview: endpoint({
      summary: 'A year of listening: totals, top fives, months, hours, days and discoveries',
      params: {
        userId: userId.meta({ description: 'Whose year (default: the caller)' }),
        year: integer(1, 9999).meta({ description: 'The calendar year, in the server time zone' }),
        household: boolean()
          .default(false)
          .meta({ description: 'The whole household: every member whose statistics the caller may see' }),
      },
      response: yearInReviewSchema,
      errors: { 401: ['stats_private'], 404: ['user_not_found'] },
      handle: ({ params, request }) => review.review(callerOf(request), params),
    }),
  };
}
