import type { LibraryIndex, TrackRecord } from '../../domain/library.js';
import { foldCredit, normaliseAlbum, normaliseArtist, normaliseTitle } from './normalise.js';

/** What a listen says about its recording. */
export interface ListenNames {
  artist: string;
  title: string;
  album: string | null;
  recordingMbid: string | null;
}

/**
 * Finds the library track a listen was of: by MusicBrainz recording id when the library has it,
 * else by normalised artist + title + album, else artist + title when that names one track only
 * or when no album was given. Built once per library snapshot; a lookup is a few map reads.
 */
export class TrackMatcher {
  private readonly byMbid = new Map<string, TrackRecord>();
  /**
   * Tracks by normalised artist + title, in the library's order (by id): the track itself when it
   * is the only one, else an array (several albums hold the recording). A listen's album is
   * compared among these rather than looked up in a map keyed by artist + title + album: such a map,
   * and an array for every track, would hold almost half of the matcher's memory.
   */
  private readonly byArtistTitle = new Map<string, TrackRecord | TrackRecord[]>();
  /** Normalised album names, by album id. */
  private readonly albums = new Map<string, string>();

  constructor(library: Readonly<LibraryIndex>) {
    const artistNames = new Map(library.artists.map((a) => [a.id, a.name]));
    for (const album of library.albums) this.albums.set(album.id, normaliseAlbum(album.name));
    // Stable choice among equals: the library's order (by id) decides.
    const tracks = [...library.tracks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const track of tracks) {
      if (track.recordingMbid) setOnce(this.byMbid, track.recordingMbid.toLowerCase(), track);
      const title = normaliseTitle(track.name);
      // A listen may credit the track as its file does, or any of its artists first, by its main
      // name or its whole name.
      const names = track.artistIds.map((id) => artistNames.get(id) ?? '');
      if (track.artist) names.unshift(track.artist);
      const artists = new Set(names.flatMap((name) => [normaliseArtist(name), foldCredit(name)]));
      for (const artist of artists) {
        const key = `${artist}\u0000${title}`;
        const held = this.byArtistTitle.get(key);
        if (held === undefined) this.byArtistTitle.set(key, track);
        else if (Array.isArray(held)) held.push(track);
        else this.byArtistTitle.set(key, [held, track]);
      }
    }
  }

  /**
   * Answers for names seen before: an export names the same few thousand recordings over and over,
   * and folding names is most of a match's work and garbage. Cleared when it reaches its bound.
   */
  private readonly seen = new Map<string, TrackRecord | null>();

  match(listen: ListenNames): TrackRecord | undefined {
    const key = `${listen.recordingMbid ?? ''}\u0000${listen.artist}\u0000${listen.title}\u0000${listen.album ?? ''}`;
    const known = this.seen.get(key);
    if (known !== undefined) return known ?? undefined;
    const found = this.find(listen);
    if (this.seen.size >= SEEN_LIMIT) this.seen.clear();
    this.seen.set(key, found ?? null);
    return found;
  }

  private find(listen: ListenNames): TrackRecord | undefined {
    if (listen.recordingMbid) {
      const byId = this.byMbid.get(listen.recordingMbid.toLowerCase());
      if (byId) return byId;
    }
    // The whole credit first ("Earth Wind & Fire"), then its main artist ("Beyoncé feat. JAY-Z").
    const title = normaliseTitle(listen.title);
    const held =
      this.byArtistTitle.get(`${foldCredit(listen.artist)}\u0000${title}`) ??
      this.byArtistTitle.get(`${normaliseArtist(listen.artist)}\u0000${title}`);
    if (held === undefined) return undefined;
    const tracks = Array.isArray(held) ? held : [held];
    if (listen.album) {
      const album = normaliseAlbum(listen.album);
      const exact = tracks.find((track) => this.album(track) === album);
      if (exact) return exact;
    }
    // Another album (a compilation, a single) or none named: the recording is still this one.
    return tracks[0];
  }

  /** A track's normalised album name ('' without one). */
  private album(track: TrackRecord): string {
    return track.albumId ? (this.albums.get(track.albumId) ?? normaliseAlbum('')) : '';
  }
}

const SEEN_LIMIT = 50_000;

function setOnce<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (!map.has(key)) map.set(key, value);
}
