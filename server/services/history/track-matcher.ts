import type { LibraryIndex, TrackRecord } from '../../domain/library.js';
import { HashedKeys } from './hashed-keys.js';
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
 * or when no album was given. Built once per library snapshot (a scrobbler's first listen builds
 * it, and it is kept): its keys are hashes in typed arrays (hashed-keys.ts), a candidate's own
 * keys are worked out again only when a lookup finds it.
 */
export class TrackMatcher {
  /** The library's tracks by id: a track's place here is what the keys point at. */
  private readonly tracks: TrackRecord[];
  private readonly byMbid: HashedKeys;
  /**
   * Tracks by normalised artist + title, in the library's order (by id). A listen's album is
   * compared among these rather than looked up by artist + title + album: that would be a key
   * more per track.
   */
  private readonly byArtistTitle: HashedKeys;
  /** Normalised album names, by album id. */
  private readonly albums = new Map<string, string>();
  private readonly artistNames: Map<string, string>;

  constructor(library: Readonly<LibraryIndex>) {
    this.artistNames = new Map(library.artists.map((a) => [a.id, a.name]));
    for (const album of library.albums) this.albums.set(album.id, normaliseAlbum(album.name));
    // Stable choice among equals: the library's order (by id) decides.
    this.tracks = [...library.tracks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.byMbid = new HashedKeys(this.tracks.length, (i) => mbidKeys(this.tracks[i]!));
    this.byArtistTitle = new HashedKeys(this.tracks.length, (i) => this.artistTitleKeys(this.tracks[i]!));
  }

  /**
   * A listen may credit the track as its file does, or any of its artists first, by its main name
   * or its whole name: one key per way, with the normalised title.
   */
  private artistTitleKeys(track: TrackRecord): string[] {
    const title = normaliseTitle(track.name);
    const names = track.artistIds.map((id) => this.artistNames.get(id) ?? '');
    if (track.artist) names.unshift(track.artist);
    const artists = new Set(names.flatMap((name) => [normaliseArtist(name), foldCredit(name)]));
    return [...artists].map((artist) => `${artist}\u0000${title}`);
  }

  /** The tracks with `key` (a hash may be shared: each candidate's own keys decide). */
  private withKey(keys: HashedKeys, key: string, keysOf: (track: TrackRecord) => string[]): TrackRecord[] {
    return keys
      .candidates(key)
      .map((i) => this.tracks[i]!)
      .filter((track) => keysOf(track).includes(key));
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
      const byId = this.withKey(this.byMbid, listen.recordingMbid.toLowerCase(), mbidKeys)[0];
      if (byId) return byId;
    }
    // The whole credit first ("Earth Wind & Fire"), then its main artist ("Beyoncé feat. JAY-Z").
    const title = normaliseTitle(listen.title);
    const keysOf = (track: TrackRecord) => this.artistTitleKeys(track);
    let tracks = this.withKey(this.byArtistTitle, `${foldCredit(listen.artist)}\u0000${title}`, keysOf);
    if (tracks.length === 0)
      tracks = this.withKey(this.byArtistTitle, `${normaliseArtist(listen.artist)}\u0000${title}`, keysOf);
    if (tracks.length === 0) return undefined;
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

const mbidKeys = (track: TrackRecord): string[] =>
  track.recordingMbid ? [track.recordingMbid.toLowerCase()] : [];
