import type { PlayLogEntry } from '../../store/play-log.js';
import { snapshotText, type PlaySnapshot } from '../../store/play-log-codec.js';
import type { GenreGroups } from './genres.js';
import type { Interner } from './interner.js';

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
  readonly album: number[] = [];
  /** Finite durations only: a non-finite one counts as 0. */
  readonly duration: number[] = [];
  readonly trackName: number[] = [];
  readonly albumName: number[] = [];
  readonly artists: number[][] = [];
  readonly artistNames: number[][] = [];
  /** Genre tags as logged (raw), and the groups and spellings a play counts once each. */
  readonly rawGenres: number[][] = [];
  readonly genreKeys: number[][] = [];
  readonly spellings: number[][] = [];
  /** Canonical text of each snapshot (play-log-codec.ts), the key it is found by. */
  readonly texts: string[] = [];
  private readonly byText = new Map<string, number>();
  /** Per track, its newest snapshot: checked first, so most adds need no text. */
  private readonly lastOfTrack: number[] = [];
  /** Per snapshot number of the play log, ours (-1 unknown). */
  private byLogNumber = new Int32Array(0);

  constructor(private readonly interners: SnapshotInterners) {}

  get count(): number {
    return this.track.length;
  }

  /** The number of the entry's snapshot, made on first sight; `logNumber` is the log's own number for it. */
  intern(e: PlaySnapshot, logNumber?: number): number {
    if (logNumber !== undefined && logNumber < this.byLogNumber.length) {
      const known = this.byLogNumber[logNumber]!;
      if (known >= 0) return known;
    }
    const trackIdx = this.interners.tracks.intern(e.trackId);
    let s = this.lastOfTrack[trackIdx] ?? -1;
    if (s < 0 || !this.holds(s, e)) {
      const text = snapshotText(e);
      s = this.byText.get(text) ?? this.define(trackIdx, e, text);
      this.lastOfTrack[trackIdx] = s;
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

  /** The snapshot as logged, for rebuilding an entry. */
  fields(s: number): PlaySnapshot & Pick<PlayLogEntry, 'artistNames'> {
    const { tracks, albums, artists, names, genres } = this.interners;
    const album = this.album[s]!;
    const trackName = this.trackName[s]!;
    const albumName = this.albumName[s]!;
    return {
      trackId: tracks.values[this.track[s]!]!,
      albumId: album < 0 ? null : albums.values[album]!,
      artistIds: this.artists[s]!.map((a) => artists.values[a]!),
      genres: this.rawGenres[s]!.map((g) => genres.raw.values[g]!),
      durationMs: this.duration[s]!,
      trackName: trackName < 0 ? null : names.values[trackName]!,
      albumName: albumName < 0 ? null : names.values[albumName]!,
      artistNames: this.artistNames[s]!.map((n) => names.values[n]!),
    };
  }

  /** Whether snapshot `s` is the entry's, compared field by field (strings of one log line are often the same objects). */
  private holds(s: number, e: PlaySnapshot): boolean {
    return sameSnapshot(this.logged[s]!, e);
  }

  /** The entry each snapshot was made from, for the quick comparison in `holds`. */
  private readonly logged: PlaySnapshot[] = [];

  private define(trackIdx: number, e: PlaySnapshot, text: string): number {
    const { albums, artists, names, genres } = this.interners;
    const s = this.count;
    this.byText.set(text, s);
    this.texts.push(text);
    this.logged.push({
      trackId: e.trackId,
      albumId: e.albumId,
      artistIds: [...e.artistIds],
      genres: [...e.genres],
      durationMs: e.durationMs,
      trackName: e.trackName,
      albumName: e.albumName,
      artistNames: [...e.artistNames],
    });
    this.track.push(trackIdx);
    this.album.push(e.albumId === null ? -1 : albums.intern(e.albumId));
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
    this.artists.push(artistIdxs);
    this.artistNames.push(artistNames);
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

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

function sameSnapshot(a: PlaySnapshot, b: PlaySnapshot): boolean {
  return (
    a.trackId === b.trackId &&
    a.albumId === b.albumId &&
    (a.durationMs === b.durationMs || (Number.isNaN(a.durationMs) && Number.isNaN(b.durationMs))) &&
    a.trackName === b.trackName &&
    a.albumName === b.albumName &&
    sameStrings(a.artistIds, b.artistIds) &&
    sameStrings(a.genres, b.genres) &&
    sameStrings(a.artistNames, b.artistNames)
  );
}
