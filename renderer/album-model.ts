import type { ArtworkInfo, Track } from '../server/contract/library.js';

/**
 * The artwork page's albums, without the DOM: the library's tracks grouped by album, with what the
 * album grid shows (a cover, counts) and which pictures an album-wide deletion removes.
 */

/** A picture of a track as the page reads it: its position, and what its caption shows. */
export type ArtInfo = Pick<ArtworkInfo, 'pos'> &
  Partial<Pick<ArtworkInfo, 'type' | 'mime' | 'width' | 'height'>>;

/** A track of `/api/tracks` as the page reads it. */
export interface LibraryTrack extends Pick<Track, 'id' | 'name' | 'album' | 'artists'> {
  trackNumber?: Track['trackNumber'];
  discNumber?: Track['discNumber'];
  artwork: ArtInfo[];
}

export interface Album {
  /** The album's id, or '' for tracks without an album. */
  id: string;
  name: string;
  artists: string;
  tracks: LibraryTrack[];
  pictures: number;
  /** The track whose first picture is the album's cover in the grid (null: none has one). */
  coverTrack: string | null;
}

/** Albums by name, each with its tracks in disc and track order; tracks without an album last. */
export function groupAlbums(tracks: LibraryTrack[]): Album[] {
  const albums = new Map<string, Album>();
  for (const track of tracks) {
    const id = track.album?.id ?? '';
    let album = albums.get(id);
    if (!album) {
      album = {
        id,
        name: track.album?.name || 'Tracks without an album',
        artists: '',
        tracks: [],
        pictures: 0,
        coverTrack: null,
      };
      albums.set(id, album);
    }
    album.tracks.push(track);
  }
  for (const album of albums.values()) {
    album.tracks.sort(
      (a, b) =>
        (a.discNumber ?? 0) - (b.discNumber ?? 0) ||
        (a.trackNumber ?? 0) - (b.trackNumber ?? 0) ||
        a.name.localeCompare(b.name),
    );
    album.pictures = album.tracks.reduce((sum, track) => sum + track.artwork.length, 0);
    album.coverTrack = album.tracks.find((track) => track.artwork.length > 0)?.id ?? null;
    const artists = new Set(album.tracks.flatMap((track) => track.artists.map((artist) => artist.name)));
    album.artists = [...artists].slice(0, 3).join(', ') + (artists.size > 3 ? ', …' : '');
  }
  return [...albums.values()].sort(
    (a, b) => Number(a.id === '') - Number(b.id === '') || a.name.localeCompare(b.name),
  );
}

/**
 * A picture position shared by an album's tracks ("the second picture of each track"). Positions,
 * not kinds, match: formats label pictures differently (M4A has no picture kinds: its back cover
 * reads "other"), and people think of "the second picture" anyway. `type` is the most common kind.
 */
export interface Slot {
  pos: number;
  type: string;
  /** The tracks that have a picture at this position. */
  trackIds: string[];
}

/** The album-wide deletions on offer: one per position found in the album's tracks. */
export function slotsOf(album: Album): Slot[] {
  const slots = new Map<number, { trackIds: string[]; types: Map<string, number> }>();
  for (const track of album.tracks) {
    for (const art of track.artwork) {
      const slot = slots.get(art.pos) ?? { trackIds: [], types: new Map<string, number>() };
      slot.trackIds.push(track.id);
      const type = art.type ?? 'picture';
      slot.types.set(type, (slot.types.get(type) ?? 0) + 1);
      slots.set(art.pos, slot);
    }
  }
  return [...slots.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([pos, slot]) => ({
      pos,
      type: [...slot.types].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0],
      trackIds: slot.trackIds,
    }));
}

/** A picture's caption: `Picture 1 · front cover · 64×64` (counted from 1, as people count). */
export function caption(art: ArtInfo): string {
  return [pictureLabel(art.pos), art.type, art.width && art.height ? `${art.width}×${art.height}` : null]
    .filter(Boolean)
    .join(' · ');
}

/** `Picture 1` for the picture at position 0: the API counts from 0, people from 1. */
export function pictureLabel(pos: number): string {
  return `Picture ${pos + 1}`;
}
