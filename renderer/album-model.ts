/**
 * The artwork page's albums, without the DOM: the library's tracks grouped by album, with what the
 * album grid shows (a cover, counts) and which pictures an album-wide deletion removes.
 */
export interface ArtInfo {
  pos: number;
  type?: string;
  mime?: string;
  width?: number | null;
  height?: number | null;
}

export interface LibraryTrack {
  id: string;
  name: string;
  album: { id: string; name: string } | null;
  artists: { id: string; name: string }[];
  trackNumber?: number | null;
  discNumber?: number | null;
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

/** A picture slot shared by an album's tracks: the same position and kind ("front cover"). */
export interface Slot {
  pos: number;
  type: string;
  /** The tracks that have a picture of this kind at this position. */
  trackIds: string[];
}

/** The album-wide deletions on offer: one per position and kind found in the album's tracks. */
export function slotsOf(album: Album): Slot[] {
  const slots = new Map<string, Slot>();
  for (const track of album.tracks) {
    for (const art of track.artwork) {
      const type = art.type ?? 'picture';
      const key = `${art.pos}\u0000${type}`;
      const slot = slots.get(key) ?? { pos: art.pos, type, trackIds: [] };
      slot.trackIds.push(track.id);
      slots.set(key, slot);
    }
  }
  return [...slots.values()].sort((a, b) => a.pos - b.pos || a.type.localeCompare(b.type));
}

/** A picture's caption: `#0 · front cover · 64×64`. */
export function caption(art: ArtInfo): string {
  return [`#${art.pos}`, art.type, art.width && art.height ? `${art.width}×${art.height}` : null]
    .filter(Boolean)
    .join(' · ');
}
