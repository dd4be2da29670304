import { isoUtc } from '../../clock.js';
import type { RecentPlay, StatsRef, TopKind, TopOf } from '../../contract/stats.js';
import type { PlayLogEntry } from '../../domain/play.js';
import type { LibraryService } from '../library-service.js';
import type { TopLists } from './reads/top-lists.js';
import type { StatsIndex } from './stats-index.js';

/** The measures a top list gives each of its items (the contract's `measures`); tracks add skips among them. */
function measuresOf(item: { plays: number; listeningMs: number; lastPlayedAt: number }) {
  return { plays: item.plays, listeningMs: item.listeningMs, lastPlayedAt: isoUtc(item.lastPlayedAt) };
}

/**
 * Names for what the statistics list: the library's current names, else the names the plays
 * recorded when the track, album or artist has left the library since (a deleted album still shows
 * in last year's top list).
 */
export class StatsNames {
  constructor(
    private readonly library: LibraryService,
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
          artists: this.library.albumArtists(item.id),
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
    const current = this.library.hasTrack(trackId) ? this.library.track(trackId) : undefined;
    if (current) {
      return {
        id: trackId,
        name: current.name,
        album: current.albumId ? this.album(current.albumId) : null,
        artists: current.artistIds.map((id) => this.artist(id)),
      };
    }
    const entry = snapshot ?? this.index.latestEntryOfTrack(trackId);
    return {
      id: trackId,
      name: entry?.trackName ?? null,
      album: entry?.albumId ? { id: entry.albumId, name: entry.albumName } : null,
      artists: (entry?.artistIds ?? []).map((id, i) => ({ id, name: entry?.artistNames[i] || null })),
    };
  }

  album(id: string): StatsRef {
    return { id, name: this.library.albumName(id) ?? this.index.snapshotName('album', id) };
  }

  readonly artistName = (id: string) => this.artist(id).name;

  artist(id: string): StatsRef {
    return { id, name: this.library.artistName(id) ?? this.index.snapshotName('artist', id) };
  }
}
