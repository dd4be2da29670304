import { z } from 'zod';
import {
  activityStepSchema,
  devicePlaysSchema,
  heatmapSchema,
  householdFactsSchema,
  listeningTimeSchema,
  logResultSchema,
  memberSchema,
  recentItemSchema,
  recentPlaySchema,
  topAlbumSchema,
  topArtistSchema,
  topGenreSchema,
  topTrackSchema,
  type TopKind,
  type TopOf,
} from '../../../contract/stats.js';
import type { StatsService } from '../../../services/stats/stats-service.js';
import { id, isoDate, paging, text } from '../../params.js';
import { callerOf, endpoint, type ErrorCodes } from '../../endpoint.js';

// An id of the wrong shape (any length) is a 404 of the resource (docs/API.md, Conventions), judged by the service.
const anyId = id();
const device = text(128).optional().meta({ description: 'The playing device, 1–128 characters' });

const logParams = {
  id: anyId.meta({ description: 'The track' }),
  device,
  dateTime: isoDate()
    .optional()
    .meta({ description: 'When it was played (default: now); at most 5 minutes ahead of the server' }),
};
const subject = {
  userId: anyId.optional().meta({ description: 'Whose statistics (default: the caller)' }),
  device,
  ...paging,
};
const ranged = {
  ...subject,
  ltDateTime: isoDate().optional().meta({ description: 'Latest play counted (inclusive)' }),
  gtDateTime: isoDate().optional().meta({ description: 'Earliest play counted (inclusive)' }),
};

/** Problems every statistics read may give. */
const readErrors: ErrorCodes = { 401: ['stats_private'], 404: ['user_not_found'] };

export function statsHandlers(stats: StatsService) {
  const log = (type: 'play' | 'skip') =>
    endpoint({
      summary: type === 'play' ? 'Log a play' : 'Log a skip',
      description:
        'Answered once the entry is on disk. A retry (same user, track, type and explicit dateTime) is recorded once and answered with the first entry.',
      params: logParams,
      response: logResultSchema,
      errors: { 404: ['track_not_found'] },
      handle: ({ params, request }) => stats.log(callerOf(request), type, params),
    });
  const top = <K extends TopKind>(kind: K, item: z.ZodType<TopOf[K]>) =>
    endpoint({
      summary: `The most played ${kind} in a range`,
      description: 'Ranked by plays, then the latest play, then id.',
      params: ranged,
      response: z.array(item),
      errors: readErrors,
      handle: ({ params, request }) => stats.top(callerOf(request), kind, params),
    });
  const recent = (kind: 'albums' | 'artists') =>
    endpoint({
      summary: `The ${kind} played last`,
      params: subject,
      response: z.array(recentItemSchema),
      errors: readErrors,
      handle: ({ params, request }) => stats.recent(callerOf(request), kind, params),
    });
  return {
    logPlay: log('play'),
    logSkip: log('skip'),
    listeningTime: endpoint({
      summary: 'Listening time and plays in a range',
      params: ranged,
      response: listeningTimeSchema,
      errors: readErrors,
      handle: ({ params, request }) => stats.listeningTime(callerOf(request), params),
    }),
    householdFacts: endpoint({
      summary: 'Days anyone listened and artists new to the household in a range',
      description: 'Over the accounts the caller may read; Pass accounts are not people.',
      params: { gtDateTime: ranged.gtDateTime, ltDateTime: ranged.ltDateTime },
      response: householdFactsSchema,
      errors: { 400: ['invalid_parameter'] },
      handle: ({ params, request }) =>
        stats.householdFacts(callerOf(request), { ...params, page: 0, count: 0 }),
    }),
    topTracks: top('tracks', topTrackSchema),
    topAlbums: top('albums', topAlbumSchema),
    topArtists: top('artists', topArtistSchema),
    topGenres: top('genres', topGenreSchema),
    recentTracks: endpoint({
      summary: 'The latest plays, newest first',
      params: subject,
      response: z.array(recentPlaySchema),
      errors: readErrors,
      handle: ({ params, request }) => stats.recent(callerOf(request), 'tracks', params),
    }),
    recentAlbums: recent('albums'),
    recentArtists: recent('artists'),
    members: endpoint({
      summary: 'The household: every account, and whether the caller may read its statistics',
      response: z.array(memberSchema),
      handle: ({ request }) => stats.members(callerOf(request)),
    }),
    devices: endpoint({
      summary: 'The devices a user played on, with their plays (all time)',
      description: 'Devices match ignoring case and are shown in their most frequent spelling.',
      params: { userId: subject.userId },
      response: z.array(devicePlaysSchema),
      errors: readErrors,
      handle: ({ params, request }) => stats.devices(callerOf(request), params),
    }),
    heatmap: endpoint({
      summary: 'Plays per weekday and hour of the day in a range',
      params: ranged,
      response: heatmapSchema,
      errors: readErrors,
      handle: ({ params, request }) => stats.heatmap(callerOf(request), params),
    }),
    activity: endpoint({
      summary: 'Plays, skips and listening time per day, week or month',
      description: 'Every step of the range, empty ones included; the range defaults to the last 30 days.',
      params: {
        ...ranged,
        step: z.enum(['day', 'week', 'month'], { error: 'must be day, week or month' }).default('day'),
      },
      response: z.array(activityStepSchema),
      errors: { ...readErrors, 400: ['too_many_steps'] },
      handle: ({ params, request }) => stats.activity(callerOf(request), params),
    }),
  };
}
