import { isoUtc } from '../../clock.js';
import type { RecentPlay, StatsRef, TopKind, TopOf } from '../../contract/stats.js';
import type { NamedRef } from '../../contract/common.js';
import type { PlayLogEntry } from '../../domain/play.js';
import type { LibraryService } from '../library-service.js';
import type { LoggedSnapshot } from './tables/latest-logs.js';
import type { TopLists } from './reads/top-lists.js';
import type { StatsIndex } from './stats-index.js';

/** The measures a top list gives each of its items (the contract's `measures`); tracks add skips among them. */
function measuresOf(item: { plays: number; listeningMs: number; lastPlayedAt: number }) {
  return { plays: item.plays, listeningMs: item.listeningMs, lastPlayedAt: isoUtc(item.lastPlayedAt) };
}

/** What the statistics name their items by: the library (`libraryNames`), or a saved view of it. */
export interface NamesSource {
  /** A track as the library has it now; undefined when it has not. */
  trackNow(id: string): { name: string; albumId: string | null; artistIds: readonly string[] } | undefined;
  albumName(id: string): string | null;
  artistName(id: string): string | null;
  albumArtists(albumId: string): NamedRef[];
}

/** The library's names. */
export function libraryNames(library: LibraryService): NamesSource {
  return {
    trackNow: (id) => (library.hasTrack(id) ? library.track(id) : undefined),
    albumName: (id) => library.albumName(id),
    artistName: (id) => library.artistName(id),
    albumArtists: (id) => library.albumArtists(id),
  };
}

/** A track as its newest log named it: how the statistics name a track the library does not have. */
export function loggedTrack(trackId: string, entry: LoggedSnapshot | undefined): RecentPlay['track'] {
  return {
    id: trackId,
    name: entry?.trackName ?? null,
    album: entry?.albumId ? { id: entry.albumId, name: entry.albumName } : null,
    artists: (entry?.artistIds ?? []).map((id, i) => ({ id, name: entry?.artistNames[i] || null })),
  };
}

/**
 * Names for what the statistics list: the library's current names, else the names the plays
 * recorded when the track, album or artist has left the library since (a deleted album still shows
 * in last year's top list).
 */
export class StatsNames {
  constructor(
    /** Asked at each read: a saved view of the library may stand in for it until it is read. */
    private readonly source: () => NamesSource,
    private readonly index: StatsIndex,
  ) {}

  /** Ranked items of a top list as the top-* reads answer them, the first at rank `firstRank`. */
  ranked<K extends TopKind>(kind: K, items: TopLists[K], firstRank = 1): TopOf[K][] {
    const rank = (i: number) => firstRank + i;
    const name: { [P in TopKind]: (items: TopLists[P]) => TopOf[P][] } = {
      tracks: (items) =>
        items.map((item, i) => {
          const track = this.track(item.id);
          return {
            rank: rank(i),
            id: item.id,
            name: track.name,
            album: track.album,
            artists: track.artists,
            plays: item.plays,
            skips: item.skips,
            listeningMs: item.listeningMs,
            lastPlayedAt: isoUtc(item.lastPlayedAt),
          };
        }),
      albums: (items) =>
        items.map((item, i) => ({
          rank: rank(i),
          id: item.id,
          name: this.album(item.id).name,
          artists: this.source().albumArtists(item.id),
          ...measuresOf(item),
        })),
      artists: (items) =>
        items.map((item, i) => ({
          rank: rank(i),
          id: item.id,
          name: this.artist(item.id).name,
          ...measuresOf(item),
        })),
      genres: (items) =>
        items.map((item, i) => ({
          rank: rank(i),
          genre: item.genre,
          ...measuresOf(item),
        })),
    };
    return name[kind](items);
  }

  track(trackId: string, snapshot?: PlayLogEntry): RecentPlay['track'] {
    const current = this.source().trackNow(trackId);
    if (current) {
      return {
        id: trackId,
        name: current.name,
        album: current.albumId ? this.album(current.albumId) : null,
        artists: current.artistIds.map((id) => this.artist(id)),
      };
    }
    return loggedTrack(trackId, snapshot ?? this.index.latestSnapshotOfTrack(trackId));
  }

  album(id: string): StatsRef {
    return { id, name: this.source().albumName(id) ?? this.index.snapshotName('album', id) };
  }

  readonly artistName = (id: string) => this.artist(id).name;

  artist(id: string): StatsRef {
    return { id, name: this.source().artistName(id) ?? this.index.snapshotName('artist', id) };
  }
}
