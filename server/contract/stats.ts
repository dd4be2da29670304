import { z } from 'zod';
import { alwaysTrue, count, namedRef, utc } from './common.js';

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
