import type { PlayLogEntry } from '../../../domain/play.js';
import { snapshotText } from '../../../store/play-log-codec.js';
import type { PlaySnapshot } from '../../../domain/play.js';
import type { GenreGroups } from './genres.js';
import type { Interner } from './interner.js';
import type { Kind } from '../sums/tally.js';
import { FloatColumn, IntColumn, Lists } from './lists.js';

export { Lists } from './lists.js';

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
  // Per snapshot, by number (lists.ts). Artists are de-duplicated, each with the name it had.
  private readonly tracks = new IntColumn();
  private counted: IntColumn;
  private readonly loggedAlbum = new IntColumn();
  private readonly durations = new FloatColumn();
  private readonly trackNames = new IntColumn();
  private readonly albumNames = new IntColumn();

  get track(): Int32Array {
    return this.tracks.data;
  }

  /** The album a snapshot's plays count for: the one logged, or its track's now (see `recount`). */
  get album(): Int32Array {
    return this.counted.data;
  }

  /** Finite durations only: a non-finite one counts as 0. */
  get duration(): Float64Array {
    return this.durations.data;
  }

  get trackName(): Int32Array {
    return this.trackNames.data;
  }

  get albumName(): Int32Array {
    return this.albumNames.data;
  }
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
    this.counted = this.loggedAlbum;
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
    const album = new IntColumn();
    let moved = false;
    let albumMoved = false;
    let changed = false;
    for (let s = 0; s < this.count; s += 1) {
      if (s > 0 && s % perStep === 0) yield;
      // One look at the library a snapshot: it makes a record of the track each time.
      const now = this.now(s, current);
      this.pushCounted(s, now, artists, names);
      moved ||= !artists.same(s, this.loggedArtists, s);
      const counted = this.countedAlbumOf(s, now);
      album.push(counted);
      albumMoved ||= counted !== this.loggedAlbum.data[s];
      changed ||=
        !artists.same(s, this.artists, s) || !names.same(s, this.artistNames, s) || this.album[s] !== counted;
    }
    // A recount begun meanwhile (a scan ended) counts every snapshot with the newer library.
    if (recount !== this.recounts) return false;
    this.current = current;
    this.artists = moved ? artists : this.loggedArtists;
    this.artistNames = moved ? names : this.loggedArtistNames;
    this.counted = albumMoved ? album : this.loggedAlbum;
    return changed;
  }

  /**
   * Counts the snapshots as a saved counting says (counted-otherwise.ts, of the same snapshots, with
   * the same library), the others as logged: what `recount` would make with that library, without
   * it. In steps of `perStep` snapshots. A recount begun meanwhile takes over.
   */
  *countAsSavedInSteps(moved: readonly CountedAs[], perStep: number): Generator<void, void> {
    const recount = ++this.recounts;
    if (moved.length === 0) return;
    const { albums, artists: artistIds, names: artistNames } = this.interners;
    const artists = new Lists();
    const names = new Lists();
    const album = new IntColumn();
    let next = 0;
    for (let s = 0; s < this.count; s += 1) {
      if (s > 0 && s % perStep === 0) yield;
      const as = moved[next]?.s === s ? moved[next++] : undefined;
      if (!as) {
        artists.pushOf(this.loggedArtists, s);
        names.pushOf(this.loggedArtistNames, s);
        album.push(this.loggedAlbum.data[s]!);
        continue;
      }
      for (const id of as.artistIds) artists.add(artistIds.intern(id));
      for (const name of as.artistNames) names.add(artistNames.intern(name));
      artists.close();
      names.close();
      album.push(as.albumId === null ? -1 : albums.intern(as.albumId));
    }
    if (recount !== this.recounts) return;
    this.artists = artists;
    this.artistNames = names;
    this.counted = album;
  }

  /**
   * The album snapshot `s` counts for: its track's now, since an album's id follows its album
   * artist's credit, which a rescan may read anew; the logged one when the track has gone or has none.
   */
  private countedAlbumOf(s: number, now: Now | undefined): number {
    const logged = this.loggedAlbum.data[s]!;
    if (!now?.albumId) return logged;
    // Most tracks are where they were when played: the logged number, without interning.
    const { albums } = this.interners;
    return albums.values[logged] === now.albumId ? logged : albums.intern(now.albumId);
  }

  /** The track of snapshot `s` in the library now (see `recount`). */
  private now(s: number, current = this.current): Now | undefined {
    return current?.(this.interners.tracks.values[this.track[s]!]!);
  }

  /** Adds to `ids` and `named` the artists and names snapshot `s` counts for (see `recount`). */
  private pushCounted(s: number, now: Now | undefined, ids: Lists, named: Lists): void {
    const { artists, names } = this.interners;
    if (!now || now.ids.length === 0 || this.creditedAsLogged(s, now)) {
      const { start, values } = this.loggedArtists;
      const loggedNames = this.loggedArtistNames.values;
      for (let i = start[s]!; i < start[s + 1]!; i += 1) {
        ids.add(values[i]!);
        named.add(loggedNames[i]!);
      }
    } else {
      for (let i = 0; i < now.ids.length; i += 1)
        if (ids.addOnce(artists.intern(now.ids[i]!))) named.add(names.intern(now.names[i] ?? ''));
    }
    ids.close();
    named.close();
  }

  /**
   * Whether the track is credited now as snapshot `s` logged it, artist by artist and name by name:
   * then its logged numbers serve, without interning what the library gives.
   */
  private creditedAsLogged(s: number, now: Now): boolean {
    const { start, values } = this.loggedArtists;
    const from = start[s]!;
    if (start[s + 1]! - from !== now.ids.length) return false;
    const loggedNames = this.loggedArtistNames.values;
    const { artists, names } = this.interners;
    for (let i = 0; i < now.ids.length; i += 1)
      if (
        artists.values[values[from + i]!] !== now.ids[i] ||
        names.values[loggedNames[from + i]!] !== (now.names[i] ?? '')
      )
        return false;
    return true;
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
    return this.tracks.length;
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
    const album = this.loggedAlbum.data[s]!;
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

  /**
   * The columns of the snapshots as logged, for saved-snapshots.ts to save and load; a load adds to
   * them only while the table is numbered by the log and counted as logged.
   */
  logged() {
    const { tracks, loggedAlbum: album, trackNames, albumNames, durations, rawGenres } = this;
    const loadable = this.followsLog && this.counted === album && this.artists === this.loggedArtists;
    const { loggedArtists: artists, loggedArtistNames: artistNames, genreKeys, spellings } = this;
    return {
      tracks,
      album,
      trackNames,
      albumNames,
      durations,
      artists,
      artistNames,
      rawGenres,
      genreKeys,
      spellings,
      loadable,
    };
  }

  private define(e: PlaySnapshot): number {
    const { tracks, albums, artists, names, genres } = this.interners;
    const s = this.count;
    this.tracks.push(tracks.intern(e.trackId));
    this.loggedAlbum.push(e.albumId === null ? -1 : albums.intern(e.albumId));
    const now =
      this.counted !== this.loggedAlbum || this.artists !== this.loggedArtists ? this.now(s) : undefined;
    if (this.counted !== this.loggedAlbum) this.counted.push(this.countedAlbumOf(s, now));
    this.durations.push(Number.isFinite(e.durationMs) ? e.durationMs : 0);
    this.trackNames.push(e.trackName === null ? -1 : names.intern(e.trackName));
    this.albumNames.push(e.albumName === null ? -1 : names.intern(e.albumName));
    const { loggedArtists, loggedArtistNames } = this;
    for (let i = 0; i < e.artistIds.length; i += 1)
      if (loggedArtists.addOnce(artists.intern(e.artistIds[i]!)))
        loggedArtistNames.add(names.intern(e.artistNames[i] ?? ''));
    loggedArtists.close();
    loggedArtistNames.close();
    if (this.artists !== loggedArtists) this.pushCounted(s, now, this.artists, this.artistNames);
    const { rawGenres, genreKeys, spellings } = this;
    for (const tag of e.genres) {
      const idx = genres.intern(tag);
      rawGenres.add(idx);
      const key = genres.rawKey[idx]!;
      if (key < 0) continue;
      // A play counts once per genre group, and once per spelling, however often it is tagged.
      genreKeys.addOnce(key);
      spellings.addOnce(genres.rawSpelling[idx]!);
    }
    rawGenres.close();
    genreKeys.close();
    spellings.close();
    return s;
  }
}

type Now = NonNullable<ReturnType<TrackNow>>;

/** What a snapshot's plays count for when it is not what it logged (counted-otherwise.ts). */
export interface CountedAs {
  s: number;
  albumId: string | null;
  artistIds: string[];
  artistNames: string[];
}

/** A track's artists (ids and names) and album in the library now, undefined when it has gone. */
export type TrackNow = (
  trackId: string,
) => { ids: string[]; names: string[]; albumId: string | null } | undefined;
