import { z } from 'zod';
import type { ExportService } from '../../../services/history/export-service.js';
import type { ImportService } from '../../../services/history/import-service.js';
import type { YearInReviewService } from '../../../services/history/year-in-review.js';
import {
  importProgressSchema,
  importSourceSchema as source,
  importStartedSchema,
  missingListensSchema,
  yearInReviewSchema,
} from '../../../contract/history.js';
import { boolean, id, integer } from '../../params.js';
import { callerOf, endpoint, rawEndpoint, StreamBody } from '../../endpoint.js';

const userId = id().optional();

/** The most an import upload may hold (a 300 MB Spotify or ListenBrainz export fits). */
export const IMPORT_UPLOAD_LIMIT_BYTES = 1024 * 1024 * 1024;

export function historyHandlers(imports: ImportService, exports: ExportService, review: YearInReviewService) {
  return {
    startImport: endpoint({
      summary: 'Import listening history from ListenBrainz, Last.fm, Libre.fm or Spotify',
      description:
        'Recognises the file from its content, stores it and imports it in the background; follow it ' +
        'with GET /api/stats/import/{id}. Admins may import for anyone, others only for themselves. ' +
        'Uploads up to 1 GiB; a ZIP may unpack to at most 1 GiB.',
      params: {
        source: source
          .optional()
          .meta({ description: 'What made the file: a hint, used when its content does not say' }),
        userId: userId.meta({ description: 'Whose history (default: the caller)' }),
        keepIncognito: boolean()
          .default(false)
          .meta({ description: "Keep Spotify's streams of private sessions (left out by default)" }),
      },
      files: {
        file:
          "The export as the service gives it: ListenBrainz's ZIP, JSON lines or JSON array; Spotify's " +
          'my_spotify_data.zip or its JSON files; a Last.fm or Libre.fm CSV',
      },
      status: 202,
      response: importStartedSchema,
      errors: {
        400: ['import_empty', 'import_unrecognised', 'import_archive_refused'],
        401: ['forbidden_role'],
        404: ['user_not_found'],
        409: ['import_queue_full'],
      },
      handle: ({ params, request }) =>
        imports.start(callerOf(request), {
          userId: params.userId,
          source: params.source,
          keepIncognito: params.keepIncognito,
          tempPath: request.files.file!.tempPath,
        }),
    }),
    imports: endpoint({
      summary: 'Past and running imports with their reports, newest first',
      description:
        "An Admin sees every member's imports, others their own and those they started; at most 50.",
      response: z.array(importProgressSchema),
      handle: ({ request }) => imports.list(callerOf(request)),
    }),
    missing: endpoint({
      summary: 'Listens that matched no library track, grouped by artist and album, the most first',
      description: "The caller's own; an Admin's for anyone. At most 50 groups.",
      params: { userId: userId.meta({ description: 'Whose listens (default: the caller)' }) },
      response: missingListensSchema,
      errors: { 401: ['forbidden_role'], 404: ['user_not_found'] },
      handle: ({ params, request }) => imports.missing(callerOf(request), params),
    }),
    importStatus: endpoint({
      summary: "An import's progress and report",
      path: { id: z.string().min(1) },
      response: importProgressSchema,
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
