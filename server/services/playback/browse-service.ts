import { isoUtc } from '../../clock.js';
import type { Page } from '../../contract/common.js';
import type { Album, Track } from '../../contract/library.js';
import type { AlbumSort, Favourites, Genre, NowPlaying, PlayQueue } from '../../contract/listening.js';
import type { AlbumRecord } from '../../domain/library.js';
import { accountOf, type Principal } from '../../domain/user.js';
import { byName } from '../album-order.js';
import type { ArtworkService, Image } from '../artwork-service.js';
import type { FavouritesService } from '../favourites-service.js';
import type { ImageResizer } from '../image-resizer.js';
import type { LibraryService } from '../library-service.js';
import type { NowPlayingService } from '../now-playing.js';
import { pageOf } from '../paging.js';
import type { PlayQueueService } from '../play-queue-service.js';
import type { StatsService } from '../stats/stats-service.js';

export interface AlbumQuery {
  sort: AlbumSort;
  q?: string | undefined;
  genre?: string | undefined;
  page: number;
  count: number;
}

/** The most albums the "most played" order ranks by plays; the rest follow by name. */
const PLAYED_RANKED = 1000;

const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');

/**
 * What a player shows: albums in the orders a listener browses by, an album's tracks, an artist's
 * albums and most played tracks, genres, the saved play queue, favourites and who is playing now.
 */
export class BrowseService {
  constructor(
    private readonly library: LibraryService,
    private readonly stats: StatsService,
    private readonly favourites: FavouritesService,
    private readonly playQueues: PlayQueueService,
    private readonly nowPlaying: NowPlayingService,
    private readonly usernames: () => ReadonlyMap<string, string>,
    private readonly artwork: ArtworkService,
    private readonly resizer: ImageResizer,
  ) {}

  /**
   * An album's cover: the first picture of its first track that has one; an artist's: their first
   * stored picture, else the cover of their first album; the default artwork when there is none.
   * Scaled to fit `size` when given.
   */
  async cover(caller: Principal, kind: 'album' | 'artist', id: string, size?: number): Promise<Image> {
    const original = kind === 'album' ? await this.albumCover(id) : await this.artistCover(caller, id);
    if (size === undefined) return original;
    // A picture that cannot be resized (too many pixels, not decodable) shows the default artwork.
    const fallback = await this.artwork.defaultImage();
    return (
      (await this.resizer.resize(original, size)) ?? (await this.resizer.resize(fallback, size)) ?? fallback
    );
  }

  private async albumCover(id: string): Promise<Image> {
    this.library.requireAlbum(id);
    const track = this.library.albumTracks(id).find((candidate) => candidate.artwork.length > 0);
    return track ? this.artwork.trackImage(track.id, 0) : this.artwork.defaultImage();
  }

  private async artistCover(caller: Principal, id: string): Promise<Image> {
    if (this.library.getArtist(caller, id).pfpCount > 0) return this.artwork.artistImage('pfp', id, 0);
    const album = this.library.artistAlbums(id)[0];
    return album ? this.albumCover(album.id) : this.artwork.defaultImage();
  }

  async albums(caller: Principal, query: AlbumQuery): Promise<Page<Album>> {
    // Filtering a list the library keeps in order gives what sorting the filtered albums would (the
    // sorts are stable): only the played order, the caller's own, is sorted per request.
    let albums = await this.sorted(caller, query.sort);
    if (query.genre) {
      // By id: the played order waits for the rankings, and a scan may replace the catalog (and
      // every record in it) meanwhile.
      const ofGenre = new Set(this.library.albumsOfGenre(query.genre).map((album) => album.id));
      albums = albums.filter((album) => ofGenre.has(album.id));
    }
    if (query.q) {
      const q = folded(query.q);
      albums = albums.filter((album) => folded(album.name).includes(q));
    }
    return pageOf(albums, query, (album) => this.library.getAlbum(caller, album.id));
  }

  albumTracks(caller: Principal, albumId: string): Track[] {
    this.library.requireAlbum(albumId);
    return this.library.albumTracks(albumId).map((track) => this.library.getTrack(caller, track.id));
  }

  artistAlbums(caller: Principal, artistId: string): Album[] {
    this.library.requireArtist(artistId);
    return this.library
      .artistAlbums(artistId)
      .sort((a, b) => (b.year ?? 0) - (a.year ?? 0) || byName(a.name, b.name))
      .map((album) => this.library.getAlbum(caller, album.id));
  }

  /** The artist's tracks the caller played most, then the rest of their tracks by name. */
  async artistTopTracks(caller: Principal, artistId: string, count: number): Promise<Track[]> {
    this.library.requireArtist(artistId);
    const tracks = this.library.trackRecords().filter((track) => track.artistIds.includes(artistId));
    const top = await this.stats.ranked(caller, 'tracks', { page: 0, count: 1000 });
    const plays = new Map(top.map((item) => [item.id, item.plays]));
    return tracks
      .sort((a, b) => (plays.get(b.id) ?? 0) - (plays.get(a.id) ?? 0) || byName(a.name, b.name))
      .slice(0, count)
      .map((track) => this.library.getTrack(caller, track.id));
  }

  genres(): Genre[] {
    const genres = new Map<string, Genre>();
    for (const track of this.library.trackRecords()) {
      for (const name of track.genres) {
        const key = name.toLocaleLowerCase('en');
        const genre = genres.get(key) ?? { name, albumCount: 0, trackCount: 0 };
        genre.trackCount += 1;
        genres.set(key, genre);
      }
    }
    for (const album of this.library.albumRecords()) {
      for (const name of this.library.albumStats(album.id).genres) {
        const genre = genres.get(name.toLocaleLowerCase('en'));
        if (genre) genre.albumCount += 1;
      }
    }
    return [...genres.values()].sort((a, b) => byName(a.name, b.name));
  }

  playQueue(caller: Principal): PlayQueue {
    const queue = this.playQueues.get(caller);
    if (!queue) return { tracks: [], current: null, positionMs: 0, changedAt: null, changedBy: null };
    return {
      tracks: queue.trackIds.map((id) => this.library.getTrack(caller, id)),
      current: queue.current,
      positionMs: queue.positionMs,
      changedAt: isoUtc(queue.changedAt),
      changedBy: queue.changedBy,
    };
  }

  favouritesOf(caller: Principal): Favourites {
    const at = (ms: number) => isoUtc(ms);
    return {
      tracks: this.favourites
        .list(caller, 'track')
        .map((item) => ({ ...this.library.getTrack(caller, item.id), starredAt: at(item.starredAt) })),
      albums: this.favourites
        .list(caller, 'album')
        .map((item) => ({ ...this.library.getAlbum(caller, item.id), starredAt: at(item.starredAt) })),
      artists: this.favourites
        .list(caller, 'artist')
        .map((item) => ({ ...this.library.getArtist(caller, item.id), starredAt: at(item.starredAt) })),
    };
  }

  /** Says the caller started a track on `client`; it lapses on its own after the track's length. */
  announce(caller: Principal, trackId: string, client: string | null): { announced: true } {
    const track = this.library.track(trackId);
    this.nowPlaying.announce(accountOf(caller), track.id, client, track.durationMs);
    return { announced: true };
  }

  /** Who is playing what: the caller and everyone whose statistics the caller may read. */
  playingNow(caller: Principal): NowPlaying[] {
    const names = this.usernames();
    return this.nowPlaying
      .list()
      .filter((entry) => this.library.hasTrack(entry.trackId) && names.has(entry.userId))
      .filter((entry) => entry.userId === caller.userId || this.stats.mayRead(caller, entry.userId))
      .map((entry) => ({
        userId: entry.userId,
        username: names.get(entry.userId)!,
        track: this.library.getTrack(caller, entry.trackId),
        client: entry.client,
        startedAt: isoUtc(entry.startedAt),
      }));
  }

  /** Every album in the order asked for. */
  private async sorted(caller: Principal, sort: AlbumSort): Promise<readonly AlbumRecord[]> {
    switch (sort) {
      case 'name':
        return this.library.albumRecords();
      case 'artist':
        return this.library.albumsByArtist();
      case 'year':
        return this.library.albumsByYear();
      case 'added':
        return this.library.newestAlbums();
      case 'played': {
        const top = await this.stats.ranked(caller, 'albums', { page: 0, count: PLAYED_RANKED });
        const plays = new Map(top.map((item) => [item.id, item.plays]));
        return [...this.library.albumRecords()].sort(
          (a, b) => (plays.get(b.id) ?? 0) - (plays.get(a.id) ?? 0) || byName(a.name, b.name),
        );
      }
    }
  }
}
