import { extname } from 'node:path';
import { isoUtc } from '../../clock.js';
import type { AlbumRecord, ArtistRecord, TrackRecord } from '../../domain/library.js';
import type { RatingKind } from '../../domain/rating.js';
import type { Principal } from '../../domain/user.js';
import { audioContentType } from '../../library/audio-file.js';
import type { Services } from '../../services/create-services.js';
import type { PlayCount } from '../../services/stats/reads/results.js';
import type { Payload } from './render.js';

/** One item's play count, looked up when presented: a page costs its items, not the user's history. */
type PlayCounts = (id: string) => PlayCount | undefined;

export const suffixOf = (track: TrackRecord) => extname(track.path).slice(1).toLowerCase();
/** The same media type the native stream sends for the original. */
export const contentTypeOf = (track: TrackRecord) => audioContentType(track.format, track.path);

/** Melon's 0–10 (half stars) as Subsonic's 1–5 stars: halved, rounded half up (1 → 1). */
export const starsOf = (melonRating: number) => Math.round(melonRating / 2);

/**
 * Makes Subsonic's song (Child), album (AlbumID3) and artist (ArtistID3) objects for one caller:
 * their own ratings, favourites and play counts. Made per request; the play counts are read from
 * the statistics once, when the first object needs them.
 */
export class Presenter {
  private trackPlays: PlayCounts | undefined;
  private albumPlays: PlayCounts | undefined;

  constructor(
    private readonly services: Services,
    readonly caller: Principal,
  ) {}

  song(track: TrackRecord): Payload {
    const { library } = this.services;
    // One look-up of the album per song: a full sync presents every song of the library.
    const album = track.albumId ? library.findAlbum(track.albumId) : undefined;
    const albumName = album?.name;
    const artists = track.artistIds.map((id) => ({ id, name: library.artistName(id) ?? '' }));
    // The credit as tagged ("Simon & Garfunkel"); `artists` lists the separate artists it names.
    const credit = track.artist ?? artists.map((artist) => artist.name).join(', ');
    const albumArtists = album ? library.albumArtists(album.id) : [];
    const albumCredit = album?.artist ?? albumArtists.map((artist) => artist.name).join(', ');
    const plays = this.playsOfTrack(track.id);
    const seconds = Math.round(track.durationMs / 1000);
    return {
      id: track.id,
      parent: track.albumId ?? undefined,
      isDir: false,
      title: track.name,
      album: albumName,
      artist: credit || undefined,
      track: track.trackNumber ?? undefined,
      year: track.year ?? undefined,
      genre: track.genres[0],
      coverArt:
        track.artwork.length > 0 ? `tr-${track.id}` : track.albumId ? `al-${track.albumId}` : undefined,
      size: track.size,
      contentType: contentTypeOf(track),
      suffix: suffixOf(track),
      duration: seconds,
      bitRate: track.durationMs > 0 ? Math.round((track.size * 8) / track.durationMs) : undefined,
      path: library.relativePath(track),
      isVideo: false,
      ...this.rating('track', track.id),
      playCount: plays?.plays ?? 0,
      played: plays ? isoUtc(plays.lastPlayedAt) : undefined,
      discNumber: track.discNumber ?? undefined,
      created: isoUtc(track.mtimeMs),
      starred: this.starred('track', track.id),
      albumId: track.albumId ?? undefined,
      artistId: track.artistIds[0],
      type: 'music',
      mediaType: 'song',
      genres: track.genres.map((name) => ({ name })),
      artists,
      displayArtist: credit,
      albumArtists,
      displayAlbumArtist: albumCredit,
    };
  }

  /** AlbumID3 (getAlbum, getArtist, getAlbumList2, search3, getStarred2). */
  album(album: AlbumRecord): Payload {
    const { library } = this.services;
    const stats = library.albumStats(album.id);
    const artists = library.albumArtists(album.id);
    const credit = album.artist ?? artists.map((artist) => artist.name).join(', ');
    const plays = this.playsOfAlbum(album.id);
    const created = library.albumAddedMs(album.id);
    const rating = this.rating('album', album.id);
    return {
      id: album.id,
      name: album.name,
      artist: credit || undefined,
      artistId: album.artistIds[0],
      coverArt: `al-${album.id}`,
      songCount: stats.trackCount,
      duration: Math.round(stats.durationMs / 1000),
      playCount: plays?.plays ?? 0,
      played: plays ? isoUtc(plays.lastPlayedAt) : undefined,
      created: isoUtc(Number.isFinite(created) ? created : 0),
      starred: this.starred('album', album.id),
      year: album.year ?? undefined,
      genre: stats.genres[0],
      userRating: rating.userRating,
      genres: stats.genres.map((name) => ({ name })),
      artists,
      displayArtist: credit,
      sortName: album.name,
    };
  }

  /** An album as a directory (Child with isDir: getAlbumList, getMusicDirectory, search2, getStarred). */
  albumDirectory(album: AlbumRecord): Payload {
    const view = this.album(album);
    return {
      id: album.id,
      parent: album.artistIds[0],
      isDir: true,
      title: album.name,
      album: album.name,
      artist: view.artist,
      year: view.year,
      genre: view.genre,
      coverArt: view.coverArt,
      duration: view.duration,
      playCount: view.playCount,
      played: view.played,
      created: view.created,
      starred: view.starred,
      ...this.rating('album', album.id),
      albumId: album.id,
      artistId: album.artistIds[0],
      mediaType: 'album',
    };
  }

  /**
   * ArtistID3 (getArtists, getArtist, search3, getStarred2). No ratings: neither the 1.16.1 XSD's
   * ArtistID3 nor OpenSubsonic's has them (the old API's Artist of indexArtist does).
   */
  artist(artist: ArtistRecord): Payload {
    const { library } = this.services;
    const stats = library.artistStats(artist.id);
    return {
      id: artist.id,
      name: artist.name,
      coverArt: `ar-${artist.id}`,
      albumCount: stats.albumCount,
      starred: this.starred('artist', artist.id),
      sortName: artist.name,
    };
  }

  /** An Artist of getIndexes, search2 and getStarred (no album count in the old API's shape). */
  indexArtist(artist: ArtistRecord): Payload {
    return {
      id: artist.id,
      name: artist.name,
      starred: this.starred('artist', artist.id),
      ...this.rating('artist', artist.id),
    };
  }

  private rating(kind: RatingKind, id: string): { userRating?: number; averageRating?: number } {
    const summary = this.services.library.ratingOf(kind, id, this.caller);
    return {
      userRating: summary.userRating === null ? undefined : starsOf(summary.userRating),
      averageRating:
        summary.averageRating === null ? undefined : Math.round((summary.averageRating / 2) * 100) / 100,
    };
  }

  private starred(kind: 'track' | 'album' | 'artist', id: string): string | undefined {
    const at = this.services.favourites.starredAt(this.caller, kind, id);
    return at === null ? undefined : isoUtc(at);
  }

  playsOfTrack(id: string): PlayCount | undefined {
    this.trackPlays ??= this.readPlays('tracks');
    return this.trackPlays(id);
  }

  private playsOfAlbum(id: string): PlayCount | undefined {
    this.albumPlays ??= this.readPlays('albums');
    return this.albumPlays(id);
  }

  /** The caller's own play counts, from Melon's statistics. */
  private readPlays(kind: 'tracks' | 'albums'): PlayCounts {
    if (this.caller.userId === null) return () => undefined;
    return this.services.stats.playCountLookup(this.caller, kind);
  }
}
