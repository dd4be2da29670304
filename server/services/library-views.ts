import type { Album, Artist, RatingSummary, Track } from '../contract/library.js';
import type { TrackRecord } from '../domain/library.js';
import type { ArtworkStore, LibraryStore, RatingsStore } from '../domain/ports.js';
import type { RatingKind } from '../domain/rating.js';
import type { Principal } from '../domain/user.js';
import type { LibraryCatalog } from './library-catalog.js';

/**
 * What the native API's views of tracks, albums and artists are read from. The catalog is the one
 * current when the read began, so a view never mixes two scans.
 */
export interface LibraryViews {
  catalog: LibraryCatalog;
  library: LibraryStore;
  ratings: RatingsStore;
  artwork: ArtworkStore;
}

const rating = (from: LibraryViews, kind: RatingKind, id: string, caller: Principal): RatingSummary =>
  from.ratings.summary(kind, id, caller.userId);

/** A track as the native API shows it, with the caller's rating. */
export function trackView(from: LibraryViews, track: TrackRecord, caller: Principal): Track {
  const artists = from.catalog.artistRefs(track.artistIds);
  const view: Track = {
    id: track.id,
    name: track.name,
    album: from.catalog.albumRef(track.albumId),
    // Records an older Melon made have no credit until their next scan: their artists, listed.
    artist: track.artist ?? artists.map((a) => a.name).join(', '),
    artists,
    genres: track.genres,
    durationMs: track.durationMs,
    trackNumber: track.trackNumber,
    discNumber: track.discNumber,
    year: track.year,
    format: track.format,
    artwork: track.artwork,
    ...rating(from, 'track', track.id, caller),
  };
  // The file's location is only for Admins (docs/API.md, Library).
  if (caller.role === 'Admin') view.path = track.path;
  return view;
}

/** An album the library holds (the caller checked the id), with the caller's rating. */
export function albumView(from: LibraryViews, id: string, caller: Principal): Album {
  const album = from.library.album(id)!;
  const stats = from.catalog.albumStats(id);
  return {
    id,
    name: album.name,
    artists: from.catalog.artistRefs(album.artistIds),
    year: album.year,
    trackCount: stats.trackCount,
    durationMs: stats.durationMs,
    genres: stats.genres,
    ...rating(from, 'album', id, caller),
  };
}

/** An artist the library holds (the caller checked the id), with the caller's rating. */
export function artistView(from: LibraryViews, id: string, caller: Principal): Artist {
  const artist = from.library.artist(id)!;
  const stats = from.catalog.artistStats(id);
  return {
    id,
    name: artist.name,
    albumCount: stats.albumCount,
    trackCount: stats.trackCount,
    pfpCount: from.artwork.artistImages(id, 'pfp').length,
    bannerCount: from.artwork.artistImages(id, 'banner').length,
    ...rating(from, 'artist', id, caller),
  };
}
