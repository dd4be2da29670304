import type { LibraryIndex, TrackRecord } from '../../domain/library.js';
import { sortedInSteps } from '../sorted-in-steps.js';
import { ITEMS_PER_LOOK, finish, timeIsUp, type Steps } from '../steps.js';
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
  private readonly tracks: readonly TrackRecord[];
  private readonly byMbid: HashedKeys;
  /**
   * Tracks by normalised artist + title, in the library's order (by id). A listen's album is
   * compared among these rather than looked up by artist + title + album: that would be a key
   * more per track.
   */
  private readonly byArtistTitle: HashedKeys;
  /** Normalised album names, by album id. */
  private readonly albums: ReadonlyMap<string, string>;
  private readonly artistNames: ReadonlyMap<string, string>;

  /**
   * Made in steps, so requests run between them: at a collector's size, folding every track's
   * names and sorting their keys takes seconds (history-service.ts runs them in the background).
   */
  static *inSteps(library: Readonly<LibraryIndex>): Steps<TrackMatcher> {
    return new TrackMatcher(yield* matcherParts(library));
  }

  /** Made at once (a test, a benchmark). */
  constructor(library: Readonly<LibraryIndex>);
  constructor(parts: MatcherParts);
  constructor(from: Readonly<LibraryIndex> | MatcherParts) {
    const parts = 'byMbid' in from ? from : finish(matcherParts(from));
    this.tracks = parts.tracks;
    this.byMbid = parts.byMbid;
    this.byArtistTitle = parts.byArtistTitle;
    this.albums = parts.albums;
    this.artistNames = parts.artistNames;
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
    const keysOf = (track: TrackRecord) => artistTitleKeys(track, this.artistNames);
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
/** Comparisons of the sort by id between two steps. */
const COMPARISONS_PER_STEP = 4_000;
/** Albums named between two steps, whatever the time left. */
const ALBUMS_PER_STEP = 2048;

/** What a matcher holds, made by `matcherParts`. */
export interface MatcherParts {
  tracks: readonly TrackRecord[];
  byMbid: HashedKeys;
  byArtistTitle: HashedKeys;
  albums: ReadonlyMap<string, string>;
  artistNames: ReadonlyMap<string, string>;
}

function* matcherParts(library: Readonly<LibraryIndex>): Steps<MatcherParts> {
  const artistNames = new Map(library.artists.map((a) => [a.id, a.name]));
  yield;
  const albums = new Map<string, string>();
  for (let i = 0; i < library.albums.length; i++) {
    const album = library.albums[i]!;
    albums.set(album.id, normaliseAlbum(album.name));
    if ((i + 1) % ITEMS_PER_LOOK === 0 && ((i + 1) % ALBUMS_PER_STEP === 0 || timeIsUp())) yield;
  }
  // Stable choice among equals: the library's order (by id) decides.
  const tracks = yield* sortedInSteps(library.tracks, byId, COMPARISONS_PER_STEP);
  const byMbid = yield* HashedKeys.inSteps(tracks.length, (i) => mbidKeys(tracks[i]!));
  const byArtistTitle = yield* HashedKeys.inSteps(tracks.length, (i) =>
    artistTitleKeys(tracks[i]!, artistNames),
  );
  return { tracks, byMbid, byArtistTitle, albums, artistNames };
}

const byId = (a: TrackRecord, b: TrackRecord): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * A listen may credit the track as its file does, or any of its artists first, by its main name
 * or its whole name: one key per way, with the normalised title.
 */
function artistTitleKeys(track: TrackRecord, artistNames: ReadonlyMap<string, string>): string[] {
  const title = normaliseTitle(track.name);
  const names = track.artistIds.map((id) => artistNames.get(id) ?? '');
  if (track.artist) names.unshift(track.artist);
  const artists = new Set(names.flatMap((name) => [normaliseArtist(name), foldCredit(name)]));
  return [...artists].map((artist) => `${artist}\u0000${title}`);
}

const mbidKeys = (track: TrackRecord): string[] =>
  track.recordingMbid ? [track.recordingMbid.toLowerCase()] : [];
