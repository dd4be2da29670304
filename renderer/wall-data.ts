import type { Api } from './api.js';
import { localDate, rangeQuery } from './format.js';
import type { ListeningTime, Member, RecentPlay } from './stats-data.js';
import type { NowPlaying } from '../server/contract/listening.js';
import type { TopAlbum } from '../server/contract/stats.js';

/**
 * What the wall display (a Pass account's view) shows: who is playing what now, the household's
 * plays today, and this week's most played albums. Everything is read with the wall's own sign-in
 * through the same reads as the statistics, so it shows only members whose statistics it may read.
 */
export interface WallAlbum {
  id: string;
  name: string;
  artists: string;
  plays: number;
  listeningMs: number;
}

export interface WallTodayPlay {
  id: string;
  playedAt: string;
  track: string;
  artists: string;
  username: string;
}

export interface WallData {
  nowPlaying: NowPlaying[];
  today: { plays: number; totalMs: number; latest: WallTodayPlay[] };
  weekAlbums: WallAlbum[];
}

/** How many albums of the week and plays of today the wall lists: what reads across a room. */
export const WALL_ALBUMS = 5;
export const WALL_LATEST = 5;

export async function loadWall(api: Api, now = new Date()): Promise<WallData> {
  const [members, nowPlaying] = await Promise.all([
    api.json<Member[]>('/api/stats/members'),
    api.json<NowPlaying[]>('/api/now-playing'),
  ]);
  // A wall display plays nothing itself; only the people whose statistics it may read count.
  const people = members.filter((member) => member.visible && member.role !== 'Pass');
  const today = rangeQuery('custom', now, { from: localDate(now), to: localDate(now) });
  const week = rangeQuery('week', now);
  const perPerson = await Promise.all(
    people.map(async (member) => {
      const [time, recent, albums] = await Promise.all([
        api.json<ListeningTime>('/api/stats/listening-time', { query: { userId: member.id, ...today } }),
        api.json<RecentPlay[]>('/api/stats/recent-tracks', {
          query: { userId: member.id, count: WALL_LATEST },
        }),
        api.json<TopAlbum[]>('/api/stats/top-albums', { query: { userId: member.id, ...week, count: 20 } }),
      ]);
      return { member, time, recent, albums };
    }),
  );
  const startOfDay = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const latest = perPerson
    .flatMap(({ member, recent }) =>
      recent
        .filter((play) => Date.parse(play.playedAt) >= startOfDay)
        .map((play) => ({
          id: play.id,
          playedAt: play.playedAt,
          track: play.track.name ?? 'unknown track',
          artists: play.track.artists.map((artist) => artist.name ?? 'unknown artist').join(', '),
          username: member.username,
        })),
    )
    .sort((a, b) => b.playedAt.localeCompare(a.playedAt))
    .slice(0, WALL_LATEST);
  const albums = new Map<string, WallAlbum>();
  for (const { albums: top } of perPerson) {
    for (const album of top) {
      const sum = albums.get(album.id) ?? {
        id: album.id,
        name: album.name ?? 'unknown album',
        artists: album.artists.map((artist) => artist.name).join(', '),
        plays: 0,
        listeningMs: 0,
      };
      sum.plays += album.plays;
      sum.listeningMs += album.listeningMs;
      albums.set(album.id, sum);
    }
  }
  return {
    nowPlaying,
    today: {
      plays: perPerson.reduce((sum, { time }) => sum + time.plays, 0),
      totalMs: perPerson.reduce((sum, { time }) => sum + time.totalMs, 0),
      latest,
    },
    weekAlbums: [...albums.values()]
      .sort((a, b) => b.plays - a.plays || a.name.localeCompare(b.name))
      .slice(0, WALL_ALBUMS),
  };
}
