import { z } from 'zod';
import type { StatsService } from '../../services/stats/stats-service.js';
import { alwaysTrue, count, namedRef, statsRef, utc } from '../openapi-schemas.js';
import { ACCOUNT_ROLES } from '../../domain/user.js';
import { id, isoDate, paging, text } from '../params.js';
import { callerOf, endpoint, type ErrorCodes } from '../types.js';

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

const measures = { plays: count(), listeningMs: count(), lastPlayedAt: utc() };

const logResult = z.object({ logged: alwaysTrue(), id: z.string(), at: utc() }).meta({ id: 'LogResult' });
const listeningTime = z.object({
  userId: z.string(),
  totalMs: count(),
  plays: count(),
  from: utc().nullable(),
  to: utc().nullable(),
  firstPlayedAt: utc().nullable().meta({ description: 'The first play counted (null: none)' }),
  lastPlayedAt: utc().nullable().meta({ description: 'The last play counted (null: none)' }),
});
const member = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(ACCOUNT_ROLES),
  self: z.boolean().meta({ description: "The caller's own account" }),
  publicStats: z.boolean().meta({ description: 'Whether the member shares their statistics' }),
  visible: z.boolean().meta({ description: 'Whether the caller may read its statistics' }),
});
const devicePlays = z.object({
  device: z.string().nullable().meta({ description: 'null: plays logged without a device' }),
  plays: count(),
});
const heatmap = z.object({
  userId: z.string(),
  cells: z
    .array(z.array(count()).length(24))
    .length(7)
    .meta({ description: 'Plays per weekday (0 = Monday) and hour, in the server’s local time' }),
});
const topTrack = z.object({
  rank: z.int().min(1),
  id: z.string(),
  name: z.string().nullable(),
  album: statsRef.nullable(),
  artists: z.array(statsRef),
  skips: count(),
  ...measures,
});
const topAlbum = z.object({
  rank: z.int().min(1),
  id: z.string(),
  name: z.string().nullable(),
  artists: z.array(namedRef),
  ...measures,
});
const topArtist = z.object({
  rank: z.int().min(1),
  id: z.string(),
  name: z.string().nullable(),
  ...measures,
});
const topGenre = z.object({ rank: z.int().min(1), genre: z.string(), ...measures });
const recentPlay = z.object({
  id: z.string().meta({ description: 'The play log entry' }),
  playedAt: utc(),
  device: z.string().nullable(),
  track: z.object({
    id: z.string(),
    name: z.string().nullable(),
    album: statsRef.nullable(),
    artists: z.array(statsRef),
  }),
});
const recentItem = z
  .object({ id: z.string(), name: z.string().nullable(), lastPlayedAt: utc(), plays: count() })
  .meta({ id: 'RecentItem' });
const activityStep = z.object({ start: utc(), plays: count(), skips: count(), listeningMs: count() });

export function statsHandlers(stats: StatsService) {
  const log = (type: 'play' | 'skip') =>
    endpoint({
      summary: type === 'play' ? 'Log a play' : 'Log a skip',
      description:
        'Answered once the entry is on disk. A retry (same user, track, type and explicit dateTime) is recorded once and answered with the first entry.',
      params: logParams,
      response: logResult,
      errors: { 404: ['track_not_found'] },
      handle: ({ params, request }) => stats.log(callerOf(request), type, params),
    });
  const top = <S extends z.ZodType>(kind: 'tracks' | 'albums' | 'artists' | 'genres', item: S) =>
    endpoint({
      summary: `The most played ${kind} in a range`,
      description: 'Ranked by plays, then the latest play, then id.',
      params: ranged,
      response: z.array(item),
      errors: readErrors,
      handle: ({ params, request }) => stats.top(callerOf(request), kind, params) as z.output<S>[],
    });
  const recent = (kind: 'albums' | 'artists') =>
    endpoint({
      summary: `The ${kind} played last`,
      params: subject,
      response: z.array(recentItem),
      errors: readErrors,
      handle: ({ params, request }) => stats.recent(callerOf(request), kind, params) as RecentItem[],
    });
  return {
    logPlay: log('play'),
    logSkip: log('skip'),
    listeningTime: endpoint({
      summary: 'Listening time and plays in a range',
      params: ranged,
      response: listeningTime,
      errors: readErrors,
      handle: ({ params, request }) => stats.listeningTime(callerOf(request), params),
    }),
    topTracks: top('tracks', topTrack),
    topAlbums: top('albums', topAlbum),
    topArtists: top('artists', topArtist),
    topGenres: top('genres', topGenre),
    recentTracks: endpoint({
      summary: 'The latest plays, newest first',
      params: subject,
      response: z.array(recentPlay),
      errors: readErrors,
      handle: ({ params, request }) =>
        stats.recent(callerOf(request), 'tracks', params) as z.output<typeof recentPlay>[],
    }),
    recentAlbums: recent('albums'),
    recentArtists: recent('artists'),
    members: endpoint({
      summary: 'The household: every account, and whether the caller may read its statistics',
      response: z.array(member),
      handle: ({ request }) => stats.members(callerOf(request)),
    }),
    devices: endpoint({
      summary: 'The devices a user played on, with their plays (all time)',
      description: 'Devices match ignoring case and are shown in their most frequent spelling.',
      params: { userId: subject.userId },
      response: z.array(devicePlays),
      errors: readErrors,
      handle: ({ params, request }) => stats.devices(callerOf(request), params),
    }),
    heatmap: endpoint({
      summary: 'Plays per weekday and hour of the day in a range',
      params: ranged,
      response: heatmap,
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
      response: z.array(activityStep),
      errors: { ...readErrors, 400: ['too_many_steps'] },
      handle: ({ params, request }) => stats.activity(callerOf(request), params),
    }),
  };
}

type RecentItem = z.output<typeof recentItem>;
