import { nextStep, stepStart, type DateStep } from '../../domain/dates.js';
import type { PlayLogEntry } from '../../store/play-log.js';
import { DeviceKeys } from './devices.js';
import { GenreGroups } from './genres.js';
import { Interner } from './interner.js';
import { LatestNames } from './latest-names.js';
import { ID_BYTES, packId, unpackId } from './log-ids.js';
import type { ActivityStep, RecentItem, StatsFilter, TopGenre, TopItem, TopTrack } from './results.js';
import { decodeSavedIndex, encodeSavedIndex } from './saved-index.js';
import { allTimeSums, rangeSums, tallyRow } from './sums.js';
import { newTallies, type Kind, type Tallies, type Tally } from './tally.js';
import { byPlays, byRecency, select } from './top-n.js';
import { logRows, type LogRows } from './log-rows.js';
import { EXPLICIT, FAR_INSERT_BUDGET, IN_PLACE_LIMIT, SKIP, UserColumns } from './user-columns.js';

/**
 * Every play log entry, indexed for the statistics reads (docs/API.md, Statistics): built from the whole log
 * at start and kept current by `add`. Strings are interned to small integers and each user's logs
 * are time-sorted typed columns, so 1M entries cost ~100 bytes each and a ranged read is a binary
 * search plus a scan of the range. All-time sums per user answer full-range reads without a scan.
 */
export class StatsIndex {
  private users = new Interner();
  private tracks = new Interner();
  private albums = new Interner();
  private artists = new Interner();
  /** Snapshot names of tracks, albums and artists. */
  private names = new Interner();
  private genres = new GenreGroups();
  private devices = new DeviceKeys();
  /** Per user index, that user's logs. */
  private columns: UserColumns[] = [];
  private latest = new LatestNames();
  /** Reused for ranged reads; reads are synchronous, so one set is enough. */
  private scratch = newTallies();
  private total = 0;
  private inPlaceLimit: number;
  private farInsertBudget: number;
  /** Reused by `add` for the artists of the entry being added. */
  private addArtists: number[] = [];
  private addArtistNames: number[] = [];

  /** The options exist for tests, to exercise the unsorted tail with few entries. */
  constructor(options: { inPlaceLimit?: number; farInsertBudget?: number } = {}) {
    this.inPlaceLimit = options.inPlaceLimit ?? IN_PLACE_LIMIT;
    this.farInsertBudget = options.farInsertBudget ?? FAR_INSERT_BUDGET;
  }

  get size(): number {
    return this.total;
  }

  /** The whole index as bytes, to be loaded by `load` at the next start (see play-index-snapshot). */
  save(): Uint8Array {
    return encodeSavedIndex({
      users: this.users,
      tracks: this.tracks,
      albums: this.albums,
      artists: this.artists,
      names: this.names,
      ...this.genres.saved(),
      ...this.devices.saved(),
      // Spare capacity is not saved: the first add after loading grows the arrays again.
      columns: this.columns.map((c) => c.trimmed()),
      ...this.latest.saved(),
      scratch: this.scratch,
      total: this.total,
      inPlaceLimit: this.inPlaceLimit,
      farInsertBudget: this.farInsertBudget,
      addArtists: this.addArtists,
      addArtistNames: this.addArtistNames,
    });
  }

  /**
   * Replaces this (empty) index with a saved one. False, leaving this index as it was, when the
   * bytes are not an index this code saved: then the caller rebuilds it from the log.
   */
  load(bytes: Uint8Array): boolean {
    const saved = decodeSavedIndex(bytes);
    if (!saved) return false;
    this.users = saved.users;
    this.tracks = saved.tracks;
    this.albums = saved.albums;
    this.artists = saved.artists;
    this.names = saved.names;
    this.genres = GenreGroups.fromSaved(saved);
    this.devices = DeviceKeys.fromSaved(saved);
    this.columns = saved.columns;
    this.latest = LatestNames.fromSaved(saved);
    this.scratch = saved.scratch;
    this.total = saved.total;
    this.inPlaceLimit = saved.inPlaceLimit;
    this.farInsertBudget = saved.farInsertBudget;
    this.addArtists = saved.addArtists;
    this.addArtistNames = saved.addArtistNames;
    return true;
  }

  add(entry: PlayLogEntry): void {
    const userIdx = this.users.intern(entry.userId);
    const u = (this.columns[userIdx] ??= new UserColumns(userIdx));
    const trackIdx = this.tracks.intern(entry.trackId);
    const albumIdx = entry.albumId === null ? -1 : this.albums.intern(entry.albumId);
    const at = entry.at;
    const play = entry.type === 'play';
    const duration = Number.isFinite(entry.durationMs) ? entry.durationMs : 0;

    // Artists de-duplicated, each with the name it had in the snapshot.
    const artistIdxs = this.addArtists;
    const artistNames = this.addArtistNames;
    artistIdxs.length = 0;
    artistNames.length = 0;
    for (let i = 0; i < entry.artistIds.length; i += 1) {
      const idx = this.artists.intern(entry.artistIds[i]!);
      if (artistIdxs.includes(idx)) continue;
      artistIdxs.push(idx);
      artistNames.push(this.names.intern(entry.artistNames[i] ?? ''));
    }
    const genres = entry.genres;

    u.reserve(u.n + 1, u.artLen + artistIdxs.length, u.genLen + genres.length);
    const row = u.insertRow(at, this.inPlaceLimit, this.farInsertBudget);
    u.at[row] = at;
    u.track[row] = trackIdx;
    u.album[row] = albumIdx;
    u.duration[row] = duration;
    u.device[row] = entry.device === null ? -1 : this.devices.intern(entry.device);
    u.flags[row] = (play ? 0 : SKIP) | (entry.explicitAt ? EXPLICIT : 0);
    u.trackName[row] = entry.trackName === null ? -1 : this.names.intern(entry.trackName);
    u.albumName[row] = entry.albumName === null ? -1 : this.names.intern(entry.albumName);
    u.artStart[row] = u.artLen;
    u.artCount[row] = artistIdxs.length;
    for (let i = 0; i < artistIdxs.length; i += 1) {
      u.artFlat[u.artLen] = artistIdxs[i]!;
      u.artNameFlat[u.artLen] = artistNames[i]!;
      u.artLen += 1;
    }
    u.genStart[row] = u.genLen;
    u.genCount[row] = genres.length;
    for (let i = 0; i < genres.length; i += 1) u.genFlat[u.genLen++] = this.genres.intern(genres[i]!);
    if (packId(entry.id, u.idBytes, row * ID_BYTES)) {
      u.idRef[row] = -1;
    } else {
      u.idRef[row] = u.otherIds.length;
      u.otherIds.push(entry.id);
    }

    tallyRow(u.all, u, row, this.genres);
    if (u.byDevice.size > 0 && u.device[row] >= 0) {
      const perDevice = u.byDevice.get(this.devices.keyOf[u.device[row]]!);
      if (perDevice) tallyRow(perDevice, u, row, this.genres);
    }
    const names = this.names.values;
    this.latest.note(names, userIdx, trackIdx, albumIdx, u.albumName[row], artistIdxs, artistNames, at);
    this.total += 1;
  }

  findRetry(userId: string, trackId: string, type: 'play' | 'skip', at: number): PlayLogEntry | undefined {
    const u = this.userColumns(userId);
    const trackIdx = this.tracks.get(trackId);
    if (!u || trackIdx === undefined) return undefined;
    const want = EXPLICIT | (type === 'skip' ? SKIP : 0);
    for (let row = u.lowerBound(at); row < u.n && u.at[row] === at; row += 1) {
      if (u.track[row] === trackIdx && u.flags[row] === want) return this.entryAt(u, row);
    }
    return undefined;
  }

  listeningTime(f: StatsFilter): { totalMs: number; plays: number } {
    const u = this.userColumns(f.userId);
    const device = this.devices.filter(f.device);
    if (!u || device === null) return { totalMs: 0, plays: 0 };
    const [lo, hi] = u.range(f.from, f.to);
    if (lo === 0 && hi === u.n) {
      const t = this.allTimeOf(u, device);
      return { totalMs: t.ms, plays: t.plays };
    }
    let totalMs = 0;
    let plays = 0;
    const { flags, duration } = u;
    const keyOf = this.devices.keyOf;
    for (let row = lo; row < hi; row += 1) {
      if (flags[row]! & SKIP) continue;
      if (device !== undefined && keyOf[u.device[row]!] !== device) continue;
      plays += 1;
      totalMs += duration[row]!;
    }
    return { totalMs, plays };
  }

  topTracks(f: StatsFilter, offset: number, limit: number): TopTrack[] {
    return this.top(f, 'tracks', (tally) =>
      this.ranked(tally, this.tracks.values, offset, limit).map((idx) => ({
        ...this.item(tally, idx, this.tracks.values[idx]!),
        skips: tally.skips[idx]!,
      })),
    );
  }

  topAlbums(f: StatsFilter, offset: number, limit: number): TopItem[] {
    return this.topItems(f, 'albums', this.albums.values, offset, limit);
  }

  topArtists(f: StatsFilter, offset: number, limit: number): TopItem[] {
    return this.topItems(f, 'artists', this.artists.values, offset, limit);
  }

  topGenres(f: StatsFilter, offset: number, limit: number): TopGenre[] {
    return this.top(f, 'genres', (tally, spellings) =>
      this.ranked(tally, this.genres.keys.values, offset, limit).map((idx) => {
        const { plays, listeningMs, lastPlayedAt } = this.item(tally, idx, '');
        return { genre: this.genres.spellingOf(idx, spellings.plays), plays, listeningMs, lastPlayedAt };
      }),
    );
  }

  recentPlays(f: StatsFilter, offset: number, limit: number): PlayLogEntry[] {
    const u = this.userColumns(f.userId);
    const device = this.devices.filter(f.device);
    if (!u || device === null || limit <= 0) return [];
    const out: PlayLogEntry[] = [];
    let skip = offset;
    const keyOf = this.devices.keyOf;
    for (let row = u.n - 1; row >= 0 && out.length < limit; row -= 1) {
      if (u.flags[row]! & SKIP) continue;
      if (device !== undefined && keyOf[u.device[row]!] !== device) continue;
      if (skip > 0) skip -= 1;
      else out.push(this.entryAt(u, row));
    }
    return out;
  }

  recentAlbums(f: StatsFilter, offset: number, limit: number): RecentItem[] {
    return this.recent(f, 'albums', this.albums.values, offset, limit);
  }

  recentArtists(f: StatsFilter, offset: number, limit: number): RecentItem[] {
    return this.recent(f, 'artists', this.artists.values, offset, limit);
  }

  /**
   * Plays, skips and listening time per local day, Monday-based week or month, every step from the
   * one containing `from` to the one containing `to`. Stops as soon as there are more than
   * `maxSteps` steps: the caller refuses such a range, so counting it would be wasted work.
   */
  activity(f: StatsFilter & { from: number; to: number }, step: DateStep, maxSteps: number): ActivityStep[] {
    const steps: ActivityStep[] = [];
    for (let start = stepStart(f.from, step); start <= f.to; start = nextStep(start, step)) {
      steps.push({ start, plays: 0, skips: 0, listeningMs: 0 });
      if (steps.length > maxSteps) return steps;
    }
    const u = this.userColumns(f.userId);
    const device = this.devices.filter(f.device);
    if (!u || device === null || steps.length === 0) return steps;
    const [lo, hi] = u.range(f.from, f.to);
    let s = 0;
    let current = steps[0]!;
    const keyOf = this.devices.keyOf;
    for (let row = lo; row < hi; row += 1) {
      if (device !== undefined && keyOf[u.device[row]!] !== device) continue;
      const at = u.at[row]!;
      while (s + 1 < steps.length && at >= steps[s + 1]!.start) current = steps[++s]!;
      if (u.flags[row]! & SKIP) {
        current.skips += 1;
      } else {
        current.plays += 1;
        current.listeningMs += u.duration[row]!;
      }
    }
    return steps;
  }

  latestEntryOfTrack(trackId: string): PlayLogEntry | undefined {
    const trackIdx = this.tracks.get(trackId);
    if (trackIdx === undefined) return undefined;
    const u = this.columns[this.latest.trackUserOf(trackIdx)];
    if (!u) return undefined;
    u.ensureSorted();
    const at = this.latest.trackAtOf(trackIdx);
    let found = -1;
    for (let row = u.lowerBound(at); row < u.n && u.at[row] === at; row += 1) {
      if (u.track[row] === trackIdx) found = row;
    }
    return found < 0 ? undefined : this.entryAt(u, found);
  }

  snapshotName(kind: 'album' | 'artist', id: string): string | null {
    const idx = kind === 'album' ? this.albums.get(id) : this.artists.get(id);
    if (idx === undefined) return null;
    const name = this.latest.nameOf(kind, idx);
    return name < 0 ? null : this.names.values[name]!;
  }

  /** A user's sorted columns, for the focused queries of ./log-rows.ts (the listening history's). */
  rowsOf(userId: string): LogRows | undefined {
    const u = this.userColumns(userId);
    return u && logRows(u, this.tracks.values, this.artists.values, (row) => this.entryAt(u, row));
  }

  private userColumns(userId: string): UserColumns | undefined {
    const idx = this.users.get(userId);
    const u = idx === undefined ? undefined : this.columns[idx];
    u?.ensureSorted();
    return u;
  }

  /**
   * Sums for a filter: the all-time sums when the filter covers every row and has no device,
   * otherwise a scan of the range into the scratch tallies (reset once `read` is done).
   */
  private top<T>(f: StatsFilter, kind: Kind, read: (tally: Tally, spellings: Tally) => T[]): T[] {
    const u = this.userColumns(f.userId);
    const device = this.devices.filter(f.device);
    if (!u || device === null) return [];
    const [lo, hi] = u.range(f.from, f.to);
    if (lo === 0 && hi === u.n) {
      const t = this.allTimeOf(u, device);
      return read(t[kind], t.spellings);
    }
    return rangeSums(this.scratch, u, [lo, hi], device, this.devices.keyOf, this.genres, kind, read);
  }

  /** All-time sums of a user, or of one of its devices. */
  private allTimeOf(u: UserColumns, device: number | undefined): Tallies {
    return allTimeSums(u, device, this.devices.keyOf, this.genres);
  }

  /** The ranks [offset, offset + limit) of a tally's items, by plays. */
  private ranked(tally: Tally, ids: string[], offset: number, limit: number): number[] {
    return select(tally.played(), byPlays(tally, ids), offset, limit);
  }

  private topItems(f: StatsFilter, kind: 'albums' | 'artists', ids: string[], offset: number, limit: number) {
    return this.top(f, kind, (tally) =>
      this.ranked(tally, ids, offset, limit).map((idx) => this.item(tally, idx, ids[idx]!)),
    );
  }

  private item(tally: Tally, idx: number, id: string): TopItem {
    return { id, plays: tally.plays[idx]!, listeningMs: tally.ms[idx]!, lastPlayedAt: tally.last[idx]! };
  }

  private recent(
    f: StatsFilter,
    kind: 'albums' | 'artists',
    ids: string[],
    offset: number,
    limit: number,
  ): RecentItem[] {
    const u = this.userColumns(f.userId);
    const device = this.devices.filter(f.device);
    if (!u || device === null) return [];
    const tally = this.allTimeOf(u, device)[kind];
    const { last, plays } = tally;
    return select(tally.played(), byRecency(tally, ids), offset, limit).map((idx) => ({
      id: ids[idx]!,
      lastPlayedAt: last[idx]!,
      plays: plays[idx]!,
    }));
  }

  /** Rebuilds the logged entry of a row from the columns. */
  private entryAt(u: UserColumns, row: number): PlayLogEntry {
    const names = this.names.values;
    const artistIds: string[] = [];
    const artistNames: string[] = [];
    const aStart = u.artStart[row]!;
    for (let i = aStart; i < aStart + u.artCount[row]!; i += 1) {
      artistIds.push(this.artists.values[u.artFlat[i]!]!);
      artistNames.push(names[u.artNameFlat[i]!]!);
    }
    const genres: string[] = [];
    const gStart = u.genStart[row]!;
    for (let i = gStart; i < gStart + u.genCount[row]!; i += 1)
      genres.push(this.genres.raw.values[u.genFlat[i]!]!);
    const ref = u.idRef[row]!;
    const album = u.album[row]!;
    const device = u.device[row]!;
    const trackName = u.trackName[row]!;
    const albumName = u.albumName[row]!;
    return {
      id: ref >= 0 ? u.otherIds[ref]! : unpackId(u.idBytes, row * ID_BYTES),
      userId: this.users.values[u.userIdx]!,
      trackId: this.tracks.values[u.track[row]!]!,
      albumId: album < 0 ? null : this.albums.values[album]!,
      artistIds,
      genres,
      durationMs: u.duration[row]!,
      device: device < 0 ? null : this.devices.names.values[device]!,
      type: u.flags[row]! & SKIP ? 'skip' : 'play',
      at: u.at[row]!,
      explicitAt: (u.flags[row]! & EXPLICIT) !== 0,
      trackName: trackName < 0 ? null : names[trackName]!,
      albumName: albumName < 0 ? null : names[albumName]!,
      artistNames,
    };
  }
}
