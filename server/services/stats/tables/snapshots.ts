import type { PlayLogEntry } from '../../../domain/play.js';
import { snapshotText } from '../../../store/play-log-codec.js';
import type { PlaySnapshot } from '../../../domain/play.js';
import type { GenreGroups } from './genres.js';
import type { Interner } from './interner.js';
import type { Kind } from '../sums/tally.js';

/** The interners a snapshot's strings are numbered by. */
export interface SnapshotInterners {
  tracks: Interner;
  albums: Interner;
  artists: Interner;
  names: Interner;
  genres: GenreGroups;
}

/**
 * Every distinct snapshot (what a track was when played: album, artists, genres, duration, names),
 * numbered once. A log row holds only its snapshot's number: most logs of a track share one, so a
 * million logs cost a few thousand snapshots, and a range's sums are made per snapshot first, then
 * folded into tracks, albums, artists and genres (see scans.ts).
 */
export class SnapshotTable {
  /** Per snapshot, by number. Artists are de-duplicated, each with the name it had. */
  readonly track: number[] = [];
  /** The album a snapshot's plays count for: the one logged, or its track's now (see `recount`). */
  album: number[];
  private readonly loggedAlbum: number[] = [];
  /** Finite durations only: a non-finite one counts as 0. */
  readonly duration: number[] = [];
  readonly trackName: number[] = [];
  readonly albumName: number[] = [];
  /**
   * The artists a snapshot's plays count for, with their names: those it logged, or those its track
   * has in the library now (see `recount`). `fields` gives what was logged.
   */
  artists: Lists;
  artistNames: Lists;
  private readonly loggedArtists = new Lists();
  private readonly loggedArtistNames = new Lists();
  private current: TrackNow | undefined;
  /** Genre tags as logged (raw), and the groups and spellings a play counts once each. */
  readonly rawGenres = new Lists();
  readonly genreKeys = new Lists();
  readonly spellings = new Lists();
  /**
   * Fed by the play log, a snapshot's number is the log's own (play-log-codec.ts): the log numbers
   * snapshots by first use, as this table does, so no text is needed to find one. Fed entries
   * without a number (tests, an older saved index), the table finds snapshots by their text.
   */
  private followsLog = true;
  /** Canonical text of each snapshot, once it finds them by text. */
  private texts: string[] = [];
  private readonly byText = new Map<string, number>();
  /** Per snapshot number of the play log, ours (-1 unknown), once it finds them by text. */
  private byLogNumber = new Int32Array(0);
  /** Recounts begun: only the latest one's counting is taken. */
  private recounts = 0;

  constructor(private readonly interners: SnapshotInterners) {
    this.album = this.loggedAlbum;
    this.artists = this.loggedArtists;
    this.artistNames = this.loggedArtistNames;
  }

  /**
   * Counts every snapshot's plays for the artists and album its track has in the library now
   * (`current`), or those it logged when the library no longer has the track: a track whose credit
   * is split differently after a rescan ("Simon & Garfunkel", once two artists, now one; an ARTISTS
   * tag added) moves all its plays to its new artists (and album, keyed by the album artist), and
   * none is lost. True when any snapshot now
   * counts for other artists than before; the caller then drops the sums made from them.
   */
  recount(current: TrackNow | undefined): boolean {
    const steps = this.recountInSteps(current, Infinity);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /** Whether plays are counted as in the library (a `recount` was given the library's tracks). */
  get countsAsInLibrary(): boolean {
    return this.current !== undefined;
  }

  /**
   * `recount` in steps: a generator that pauses after every `perStep` snapshots (a start's load
   * in the background). Snapshots defined meanwhile are counted too; the new counting takes over
   * at the end, all at once, unless another recount began meanwhile: that one's is taken. `current` defaults to the library the last recount was given.
   */
  *recountInSteps(current: TrackNow | undefined = this.current, perStep: number): Generator<void, boolean> {
    const recount = ++this.recounts;
    const artists = new Lists();
    const names = new Lists();
    const album: number[] = [];
    let moved = false;
    let albumMoved = false;
    let changed = false;
    for (let s = 0; s < this.count; s += 1) {
      if (s > 0 && s % perStep === 0) yield;
      const [ids, named] = this.countedOf(s, current);
      artists.push(ids);
      names.push(named);
      moved ||= !sameList(ids, this.loggedArtists, s);
      const counted = this.countedAlbumOf(s, current);
      album.push(counted);
      albumMoved ||= counted !== this.loggedAlbum[s];
      changed ||=
        !sameList(ids, this.artists, s) || !sameList(named, this.artistNames, s) || this.album[s] !== counted;
    }
    // A recount begun meanwhile (a scan ended) counts every snapshot with the newer library.
    if (recount !== this.recounts) return false;
    this.current = current;
    this.artists = moved ? artists : this.loggedArtists;
    this.artistNames = moved ? names : this.loggedArtistNames;
    this.album = albumMoved ? album : this.loggedAlbum;
    return changed;
  }

  /**
   * The album snapshot `s` counts for: its track's now, since an album's id follows its album
   * artist's credit, which a rescan may read anew; the logged one when the track has gone or has none.
   */
  private countedAlbumOf(s: number, current = this.current): number {
    const now = current?.(this.interners.tracks.values[this.track[s]!]!);
    if (!now?.albumId) return this.loggedAlbum[s]!;
    return this.interners.albums.intern(now.albumId);
  }

  /** The artists and names snapshot `s` counts for (see `recount`). */
  private countedOf(s: number, current = this.current): [number[], number[]] {
    const { tracks, artists, names } = this.interners;
    const now = current?.(tracks.values[this.track[s]!]!);
    if (!now || now.ids.length === 0) return [this.loggedArtists.of(s), this.loggedArtistNames.of(s)];
    const ids: number[] = [];
    const named: number[] = [];
    now.ids.forEach((id, i) => {
      const idx = artists.intern(id);
      if (ids.includes(idx)) return;
      ids.push(idx);
      named.push(names.intern(now.names[i] ?? ''));
    });
    return [ids, named];
  }

  /** How many items of a kind (genres: groups; spellings: genre spellings) the snapshots name so far. */
  itemCount(kind: Kind | 'spellings'): number {
    const { tracks, albums, artists, genres } = this.interners;
    switch (kind) {
      case 'tracks':
        return tracks.count;
      case 'albums':
        return albums.count;
      case 'artists':
        return artists.count;
      case 'genres':
        return genres.keys.count;
      case 'spellings':
        return genres.spellings.count;
    }
  }

  /** Whether the numbers are the play log's. */
  get numberedByLog(): boolean {
    return this.followsLog;
  }

  get count(): number {
    return this.track.length;
  }

  /** The number of the entry's snapshot, made on first sight; `logNumber` is the log's own number for it. */
  intern(e: PlaySnapshot, logNumber?: number): number {
    if (this.followsLog && logNumber !== undefined) {
      if (logNumber < this.count) return logNumber;
      if (logNumber === this.count) return this.define(e);
    }
    if (this.followsLog) this.findByText();
    if (logNumber !== undefined && logNumber < this.byLogNumber.length) {
      const known = this.byLogNumber[logNumber]!;
      if (known >= 0) return known;
    }
    const text = snapshotText(e);
    let s = this.byText.get(text);
    if (s === undefined) {
      s = this.define(e);
      this.byText.set(text, s);
      this.texts.push(text);
    }
    if (logNumber !== undefined) {
      if (logNumber >= this.byLogNumber.length) {
        const next = new Int32Array(Math.max(16, logNumber * 2)).fill(-1);
        next.set(this.byLogNumber);
        this.byLogNumber = next;
      }
      this.byLogNumber[logNumber] = s;
    }
    return s;
  }

  /** Canonical texts of snapshots [from, count), to save them (only when not numbered by the log). */
  textsFrom(from: number): string[] {
    return this.texts.slice(from);
  }

  /** From now on, find snapshots by their text (see `followsLog`). */
  private findByText(): void {
    this.followsLog = false;
    this.texts = [];
    for (let s = 0; s < this.count; s += 1) {
      const text = snapshotText(this.fields(s));
      this.texts.push(text);
      this.byText.set(text, s);
    }
  }

  /** The snapshot as logged, for rebuilding an entry. */
  fields(s: number): PlaySnapshot & Pick<PlayLogEntry, 'artistNames'> {
    const { tracks, albums, artists, names, genres } = this.interners;
    const album = this.loggedAlbum[s]!;
    const trackName = this.trackName[s]!;
    const albumName = this.albumName[s]!;
    return {
      trackId: tracks.values[this.track[s]!]!,
      albumId: album < 0 ? null : albums.values[album]!,
      artistIds: this.loggedArtists.of(s).map((a) => artists.values[a]!),
      genres: this.rawGenres.of(s).map((g) => genres.raw.values[g]!),
      durationMs: this.duration[s]!,
      trackName: trackName < 0 ? null : names.values[trackName]!,
      albumName: albumName < 0 ? null : names.values[albumName]!,
      artistNames: this.loggedArtistNames.of(s).map((n) => names.values[n]!),
    };
  }

  private define(e: PlaySnapshot): number {
    const { tracks, albums, artists, names, genres } = this.interners;
    const s = this.count;
    this.track.push(tracks.intern(e.trackId));
    this.loggedAlbum.push(e.albumId === null ? -1 : albums.intern(e.albumId));
    if (this.album !== this.loggedAlbum) this.album.push(this.countedAlbumOf(s));
    this.duration.push(Number.isFinite(e.durationMs) ? e.durationMs : 0);
    this.trackName.push(e.trackName === null ? -1 : names.intern(e.trackName));
    this.albumName.push(e.albumName === null ? -1 : names.intern(e.albumName));
    const artistIdxs: number[] = [];
    const artistNames: number[] = [];
    for (let i = 0; i < e.artistIds.length; i += 1) {
      const idx = artists.intern(e.artistIds[i]!);
      if (artistIdxs.includes(idx)) continue;
      artistIdxs.push(idx);
      artistNames.push(names.intern(e.artistNames[i] ?? ''));
    }
    this.loggedArtists.push(artistIdxs);
    this.loggedArtistNames.push(artistNames);
    if (this.artists !== this.loggedArtists) {
      const [ids, named] = this.countedOf(s);
      this.artists.push(ids);
      this.artistNames.push(named);
    }
    const raw: number[] = [];
    const keys: number[] = [];
    const spellings: number[] = [];
    for (const tag of e.genres) {
      const idx = genres.intern(tag);
      raw.push(idx);
      const key = genres.rawKey[idx]!;
      if (key < 0) continue;
      // A play counts once per genre group, and once per spelling, however often it is tagged.
      if (!keys.includes(key)) keys.push(key);
      const spelling = genres.rawSpelling[idx]!;
      if (!spellings.includes(spelling)) spellings.push(spelling);
    }
    this.rawGenres.push(raw);
    this.genreKeys.push(keys);
    this.spellings.push(spellings);
    return s;
  }
}

/** A track's artists (ids and names) and album in the library now, undefined when it has gone. */
export type TrackNow = (
  trackId: string,
) => { ids: string[]; names: string[]; albumId: string | null } | undefined;

function sameList(list: readonly number[], lists: Lists, s: number): boolean {
  const from = lists.start[s]!;
  if (lists.start[s + 1]! - from !== list.length) return false;
  return list.every((v, i) => lists.values[from + i] === v);
}

/**
 * A short list of numbers per snapshot, all in one array (list s is values[start[s], start[s + 1])):
 * a few thousand small arrays would cost more in headers and spare room than in numbers.
 */
export class Lists {
  readonly start: number[] = [0];
  readonly values: number[] = [];

  push(list: readonly number[]): void {
    for (const v of list) this.values.push(v);
    this.start.push(this.values.length);
  }

  of(s: number): number[] {
    return this.values.slice(this.start[s], this.start[s + 1]);
  }
}
