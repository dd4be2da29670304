import { z } from 'zod';
import { alwaysTrue, count, namedRef, utc } from './common.js';
import { ACCOUNT_ROLES } from './users.js';

/** A reference in statistics: the name is the library's, or the snapshot's, or null. */
export const statsRef = z
  .object({ id: z.string(), name: z.string().nullable() })
  .meta({ id: 'StatsRef', description: 'The name from the library, else from the play log snapshot.' });
export type StatsRef = z.output<typeof statsRef>;

export const logResultSchema = z
  .object({ logged: alwaysTrue(), id: z.string(), at: utc() })
  .meta({ id: 'LogResult' });
export type LogResult = z.output<typeof logResultSchema>;

export const listeningTimeSchema = z.object({
  userId: z.string(),
  totalMs: count(),
  plays: count(),
  from: utc().nullable(),
  to: utc().nullable(),
  firstPlayedAt: utc().nullable().meta({ description: 'The first play counted (null: none)' }),
  lastPlayedAt: utc().nullable().meta({ description: 'The last play counted (null: none)' }),
  daysListened: count().meta({
    description: 'Days (in the server’s local time) with at least one play counted',
  }),
  newArtists: count().meta({
    description:
      'Artists the user first heard in the range (on any device); "Unknown Artist" and unnamed artists are not counted',
  }),
});
export type ListeningTime = z.output<typeof listeningTimeSchema>;

const measures = { plays: count(), listeningMs: count(), lastPlayedAt: utc() };

export const topTrackSchema = z.object({
  rank: z.int().min(1),
  id: z.string(),
  name: z.string().nullable(),
  album: statsRef.nullable(),
  artists: z.array(statsRef),
  skips: count(),
  ...measures,
});
export const topAlbumSchema = z.object({
  rank: z.int().min(1),
  id: z.string(),
  name: z.string().nullable(),
  artists: z.array(namedRef),
  ...measures,
});
export const topArtistSchema = z.object({
  rank: z.int().min(1),
  id: z.string(),
  name: z.string().nullable(),
  ...measures,
});
export const topGenreSchema = z.object({ rank: z.int().min(1), genre: z.string(), ...measures });
export type TopTrack = z.output<typeof topTrackSchema>;
export type TopAlbum = z.output<typeof topAlbumSchema>;
export type TopArtist = z.output<typeof topArtistSchema>;
export type TopGenre = z.output<typeof topGenreSchema>;

/** What each `top-*` endpoint lists, by kind. */
export interface TopOf {
  tracks: TopTrack;
  albums: TopAlbum;
  artists: TopArtist;
  genres: TopGenre;
}
export type TopKind = keyof TopOf;

export const recentPlaySchema = z.object({
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
export type RecentPlay = z.output<typeof recentPlaySchema>;

export const recentItemSchema = z
  .object({ id: z.string(), name: z.string().nullable(), lastPlayedAt: utc(), plays: count() })
  .meta({ id: 'RecentItem' });
export type RecentItem = z.output<typeof recentItemSchema>;

/** What each `recent-*` endpoint lists, by kind. */
export interface RecentOf {
  tracks: RecentPlay;
  albums: RecentItem;
  artists: RecentItem;
}
export type RecentKind = keyof RecentOf;

export const activityStepSchema = z.object({
  start: utc(),
  plays: count(),
  skips: count(),
  listeningMs: count(),
});
export type ActivityStep = z.output<typeof activityStepSchema>;

/** `/api/stats/members`: an account of the household, and whether the caller may read its statistics. */
export const memberSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(ACCOUNT_ROLES),
  self: z.boolean().meta({ description: "The caller's own account" }),
  publicStats: z.boolean().meta({ description: 'Whether the member shares their statistics' }),
  visible: z.boolean().meta({ description: 'Whether the caller may read its statistics' }),
});
export type Member = z.output<typeof memberSchema>;

/** `/api/stats/devices`: a device a user played on, with their plays. */
export const devicePlaysSchema = z.object({
  device: z.string().nullable().meta({ description: 'null: plays logged without a device' }),
  plays: count(),
});
export type DevicePlays = z.output<typeof devicePlaysSchema>;

/** `/api/stats/heatmap`: plays per weekday and hour. */
export const heatmapSchema = z.object({
  userId: z.string(),
  cells: z
    .array(z.array(count()).length(24))
    .length(7)
    .meta({ description: 'Plays per weekday (0 = Monday) and hour, in the server’s local time' }),
});
export type Heatmap = z.output<typeof heatmapSchema>;

/** `/api/stats/household-facts`: everyone's headline figures that cannot be added up per person. */
export const householdFactsSchema = z.object({
  people: count().meta({
    description: 'The accounts counted: those the caller may read, Pass accounts left out',
  }),
  daysListened: count().meta({
    description: 'Days (server local time) on which any of them played something',
  }),
  newArtists: count().meta({
    description:
      'Artists none of them had heard before the range and one of them first heard in it; "Unknown Artist" not counted',
  }),
});
export type HouseholdFacts = z.output<typeof householdFactsSchema>;
