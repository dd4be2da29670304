import { deserialize, serialize } from 'node:v8';
import type { PlayLogEntry } from '../../store/play-log.js';

/** Which logs a read looks at. `from`/`to` are inclusive epoch ms; `device` matches exactly, ignoring case. */
export interface StatsFilter {
  userId: string;
  from?: number | undefined;
  to?: number | undefined;
  device?: string | undefined;
}

export interface TopItem {
  id: string;
  plays: number;
  listeningMs: number;
  lastPlayedAt: number;
}

export interface TopTrack extends TopItem {
  skips: number;
}

export interface TopGenre {
  genre: string;
  plays: number;
  listeningMs: number;
  lastPlayedAt: number;
}

export interface RecentItem {
  id: string;
  lastPlayedAt: number;
  plays: number;
}

export interface ActivityStep {
  start: number;
  plays: number;
  skips: number;
  listeningMs: number;
}

export type ActivityStepKind = 'day' | 'week' | 'month';

/** One log as scanRows shows it. */
export interface ScannedRow {
  at: number;
  device: string | null;
  play: boolean;
}

/**
 * Version of the saved form (`save`). Bump it whenever a field of StatsIndex, UserColumns, Tally or
 * Interner changes meaning or type; an added or removed field is caught without it.
 */
const SAVED_FORMAT = 1;
const SKIP = 1;
const EXPLICIT = 2;
/** Bytes of a packed log id (22 base64url characters). */
const ID_BYTES = 16;
const BASE64URL = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < alphabet.length; i += 1) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/**
 * Packs a server-made log id (22 base64url characters, 16 bytes) into `out` at `offset`; false for
 * any other shape, which is then kept as a string.
 */
function packId(id: string, out: Uint8Array, offset: number): boolean {
  if (id.length !== 22) return false;
  const value = (i: number) => {
    const c = id.charCodeAt(i);
    return c < 128 ? BASE64URL[c]! : -1;
  };
  let o = offset;
  for (let i = 0; i < 20; i += 4) {
    const a = value(i);
    const b = value(i + 1);
    const c = value(i + 2);
    const d = value(i + 3);
    if ((a | b | c | d) < 0) return false;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  const a = value(20);
  const b = value(21);
  // The last character carries 2 bits; the other 4 must be zero or the id would not round-trip.
  if ((a | b) < 0 || (b & 15) !== 0) return false;
  out[o] = (a << 2) | (b >> 4);
  return true;
}
/**
 * A log with a time in the past is inserted in place when it lands this close to the end (the usual
 * case: a client that was offline for a while). Further back, it waits in an unsorted tail that the
 * next read merges in one pass, so loading a log written out of order stays O(n log n).
 */
const IN_PLACE_LIMIT = 4096;
/** How many logs far in the past may be shifted into place between two reads of a user. */
const FAR_INSERT_BUDGET = 16;
/** Up to this many ranked items are kept by insertion; beyond it a full sort is cheaper. */
const SELECT_LIMIT = 256;

/** Strings to small integers and back, so the columns hold numbers only. */
class Interner {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];

  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }

  get(value: string): number | undefined {
    return this.ids.get(value);
  }

  get count(): number {
    return this.values.length;
  }
}

function capacityFor(needed: number, current: number): number {
  let cap = Math.max(current, 16);
  while (cap < needed) cap *= 2;
  return cap;
}

function grown<T extends Int32Array | Float64Array | Uint8Array | Uint16Array>(array: T, cap: number): T {
  const next = new (array.constructor as new (length: number) => T)(cap);
  next.set(array);
  return next;
}

/**
 * A latest-wins pair of columns (the time of the newest log per index, and what that log recorded)
 * grown to hold index `idx`; new slots read "none yet" (-Infinity and -1).
 */
function grownLatest<T extends Float64Array, V extends Int32Array>(times: T, values: V, idx: number): [T, V] {
  const old = times.length;
  const cap = capacityFor(idx + 1, old);
  return [grown(times, cap).fill(-Infinity, old), grown(values, cap).fill(-1, old)];
}

/** Stores `value` at `idx` of a latest-wins pair unless a later log is there already. */
function keepLatest(times: Float64Array, values: Int32Array, idx: number, at: number, value: number): void {
  if (at >= times[idx]!) {
    times[idx] = at;
    values[idx] = value;
  }
}

/**
 * Per-item sums for one kind (tracks, albums, artists or genres), in dense arrays indexed by the
 * interned id. Used both for all-time sums kept current on every add, and as scratch for a range.
 */
class Tally {
  plays = new Int32Array(0);
  skips = new Int32Array(0);
  ms = new Float64Array(0);
  last = new Float64Array(0);
  /** Items with at least one play or skip, so a reset or a ranking touches only those. */
  touched: number[] = [];

  private grow(idx: number): void {
    const cap = capacityFor(idx + 1, this.plays.length);
    this.plays = grown(this.plays, cap);
    this.skips = grown(this.skips, cap);
    this.ms = grown(this.ms, cap);
    this.last = grown(this.last, cap);
  }

  bump(idx: number, play: boolean, durationMs: number, at: number): void {
    if (idx >= this.plays.length) this.grow(idx);
    const plays = this.plays[idx]!;
    if (plays === 0 && this.skips[idx] === 0) this.touched.push(idx);
    if (play) {
      if (plays === 0 || at > this.last[idx]!) this.last[idx] = at;
      this.plays[idx] = plays + 1;
      this.ms[idx] = this.ms[idx]! + durationMs;
    } else {
      this.skips[idx] = this.skips[idx]! + 1;
    }
  }

  reset(): void {
    for (const idx of this.touched) {
      this.plays[idx] = 0;
      this.skips[idx] = 0;
      this.ms[idx] = 0;
    }
    this.touched = [];
  }

  played(): number[] {
    const out: number[] = [];
    for (const idx of this.touched) if (this.plays[idx]! > 0) out.push(idx);
    return out;
  }
}

type Kind = 'tracks' | 'albums' | 'artists' | 'genres';

interface Tallies {
  tracks: Tally;
  albums: Tally;
  artists: Tally;
  genres: Tally;
  /** Plays per genre spelling (trimmed), to show a group's most frequent one. */
  spellings: Tally;
  plays: number;
  ms: number;
}

function reviveTallies(tallies: Tallies): void {
  for (const tally of [tallies.tracks, tallies.albums, tallies.artists, tallies.genres, tallies.spellings])
    Object.setPrototypeOf(tally, Tally.prototype);
}

function newTallies(): Tallies {
  return {
    tracks: new Tally(),
    albums: new Tally(),
    artists: new Tally(),
    genres: new Tally(),
    spellings: new Tally(),
    plays: 0,
    ms: 0,
  };
}

/** The per-row columns of UserColumns (one element per log). */
const ROW_COLUMNS = [
  'at',
  'track',
  'album',
  'duration',
  'device',
  'flags',
  'artStart',
  'artCount',
  'genStart',
  'genCount',
  'trackName',
  'albumName',
  'idRef',
] as const;

/**
 * One user's logs as parallel columns sorted by time (a typed array per field), so a date range is a
 * binary search and a scan over numbers. Artists and genres sit in flat append-only arrays that the
 * rows point into, so moving a row moves only fixed-size fields.
 */
class UserColumns {
  n = 0;
  /** Rows [0, sorted) are in time order; rows after it are an unsorted tail awaiting a merge. */
  sorted = 0;
  at = new Float64Array(0);
  track = new Int32Array(0);
  album = new Int32Array(0);
  duration = new Float64Array(0);
  device = new Int32Array(0);
  flags = new Uint8Array(0);
  artStart = new Int32Array(0);
  artCount = new Uint16Array(0);
  genStart = new Int32Array(0);
  genCount = new Uint16Array(0);
  trackName = new Int32Array(0);
  albumName = new Int32Array(0);
  /** Log ids packed to 16 bytes each; ids of another shape are kept in `otherIds` (idRef ≥ 0). */
  idBytes = new Uint8Array(0);
  idRef = new Int32Array(0);
  otherIds: string[] = [];
  artFlat = new Int32Array(0);
  artNameFlat = new Int32Array(0);
  artLen = 0;
  genFlat = new Int32Array(0);
  genLen = 0;
  /** All-time sums, kept current on every add: a full-range read without a device needs no scan. */
  readonly all = newTallies();
  /** All-time sums per device key, made on the first full-range read of that device, then kept current. */
  readonly byDevice = new Map<number, Tallies>();
  /** Logs shifted in far from the end since the last read (see StatsIndex.add). */
  farInserts = 0;

  constructor(readonly userIdx: number) {}

  reserve(rows: number, artists: number, genres: number): void {
    if (rows > this.at.length) {
      const cap = capacityFor(rows, this.at.length);
      const columns = this.rowColumns();
      for (const key of ROW_COLUMNS) columns[key] = grown(columns[key], cap);
      this.idBytes = grown(this.idBytes, cap * ID_BYTES);
    }
    if (artists > this.artFlat.length) {
      const cap = capacityFor(artists, this.artFlat.length);
      this.artFlat = grown(this.artFlat, cap);
      this.artNameFlat = grown(this.artNameFlat, cap);
    }
    if (genres > this.genFlat.length)
      this.genFlat = grown(this.genFlat, capacityFor(genres, this.genFlat.length));
  }

  /**
   * This object seen as its row columns by name. Each key reads and writes its own column; TypeScript
   * cannot pair a key's array type across a read and a write, hence the one cast.
   */
  private rowColumns(): Record<(typeof ROW_COLUMNS)[number], Uint8Array> {
    return this as unknown as Record<(typeof ROW_COLUMNS)[number], Uint8Array>;
  }

  /** Opens a gap at row `pos` by moving rows [pos, n) one place on. */
  shift(pos: number): void {
    const { n } = this;
    for (const key of ROW_COLUMNS) this[key].copyWithin(pos + 1, pos, n);
    this.idBytes.copyWithin((pos + 1) * ID_BYTES, pos * ID_BYTES, n * ID_BYTES);
  }

  /** A copy whose arrays hold just the rows and artists/genres in use (no spare capacity), to save. */
  trimmed(): UserColumns {
    const copy = Object.assign(Object.create(UserColumns.prototype) as UserColumns, this);
    const columns = copy.rowColumns();
    const own = this.rowColumns();
    for (const key of ROW_COLUMNS) columns[key] = own[key].slice(0, this.n);
    copy.idBytes = this.idBytes.slice(0, this.n * ID_BYTES);
    copy.artFlat = this.artFlat.slice(0, this.artLen);
    copy.artNameFlat = this.artNameFlat.slice(0, this.artLen);
    copy.genFlat = this.genFlat.slice(0, this.genLen);
    return copy;
  }

  /** First row with at ≥ value (within the sorted rows). */
  lowerBound(value: number): number {
    let lo = 0;
    let hi = this.sorted;
    const at = this.at;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (at[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First row with at > value (within the sorted rows). */
  upperBound(value: number): number {
    let lo = 0;
    let hi = this.sorted;
    const at = this.at;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (at[mid]! <= value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Merges the unsorted tail into the sorted rows; equal times keep the order they were added in. */
  ensureSorted(): void {
    this.farInserts = 0;
    const { n, sorted } = this;
    if (sorted === n) return;
    const at = this.at;
    const tail = Array.from({ length: n - sorted }, (_, i) => sorted + i);
    tail.sort((a, b) => at[a]! - at[b]! || a - b);
    const order = new Int32Array(n);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < sorted && j < tail.length) {
      const t = tail[j]!;
      if (at[t]! < at[i]!) {
        order[k++] = t;
        j += 1;
      } else {
        order[k++] = i++;
      }
    }
    while (i < sorted) order[k++] = i++;
    while (j < tail.length) order[k++] = tail[j++]!;
    const gather = <T extends Int32Array | Float64Array | Uint8Array | Uint16Array>(column: T): T => {
      const next = new (column.constructor as new (length: number) => T)(column.length);
      for (let r = 0; r < n; r += 1) next[r] = column[order[r]!]!;
      return next;
    };
    const columns = this.rowColumns();
    for (const key of ROW_COLUMNS) columns[key] = gather(columns[key]);
    const bytes = new Uint8Array(this.idBytes.length);
    for (let r = 0; r < n; r += 1) {
      bytes.set(this.idBytes.subarray(order[r]! * ID_BYTES, order[r]! * ID_BYTES + ID_BYTES), r * ID_BYTES);
    }
    this.idBytes = bytes;
    this.sorted = n;
  }

  /** Rows [lo, hi) with from ≤ at ≤ to. */
  range(from: number | undefined, to: number | undefined): [number, number] {
    const lo = from === undefined ? 0 : this.lowerBound(from);
    const hi = to === undefined ? this.n : this.upperBound(to);
    return [lo, Math.max(lo, hi)];
  }
}

type Comparator = (a: number, b: number) => number;

/** The items at ranks [offset, offset + limit) of `candidates` under `compare` (a total order). */
function select(candidates: number[], compare: Comparator, offset: number, limit: number): number[] {
  const k = offset + limit;
  if (limit <= 0 || offset >= candidates.length) return [];
  if (k > SELECT_LIMIT || k * 8 > candidates.length) {
    candidates.sort(compare);
    return candidates.slice(offset, k);
  }
  // Keep the best k in a sorted buffer: most candidates lose to the current k-th and cost one compare.
  const best: number[] = [];
  for (const c of candidates) {
    if (best.length === k) {
      if (compare(c, best[k - 1]!) >= 0) continue;
      best.pop();
    }
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(best[mid]!, c) < 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, c);
  }
  return best.slice(offset, k);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Start (local time) of the day, Monday-based week or month containing `ms`. */
function stepStart(ms: number, step: ActivityStepKind): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  if (step === 'week') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  if (step === 'month') d.setDate(1);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

function nextStep(start: number, step: ActivityStepKind): number {
  const d = new Date(start);
  if (step === 'day') d.setDate(d.getDate() + 1);
  else if (step === 'week') d.setDate(d.getDate() + 7);
  else d.setMonth(d.getMonth() + 1, 1);
  // Across a daylight-saving change the clock time can drift; steps start at local midnight.
  d.setHours(0, 0, 0, 0);
  const next = d.getTime();
  // A zone where midnight is skipped must still move forward.
  return next > start ? next : start + 24 * 60 * 60 * 1000;
}

/**
 * Every play log entry, indexed for the statistics reads (contract §4): built from the whole log
 * at start and kept current by `add`. Strings are interned to small integers and each user's logs
 * are time-sorted typed columns, so 1M entries cost ~100 bytes each and a ranged read is a binary
 * search plus a scan of the range. All-time sums per user answer full-range reads without a scan.
 */
export class StatsIndex {
  private readonly users = new Interner();
  private readonly tracks = new Interner();
  private readonly albums = new Interner();
  private readonly artists = new Interner();
  private readonly names = new Interner();
  private readonly rawGenres = new Interner();
  private readonly genreSpellings = new Interner();
  private readonly genreKeys = new Interner();
  private readonly devices = new Interner();
  private readonly deviceKeys = new Interner();
  private readonly rawGenreSpelling: number[] = [];
  private readonly rawGenreKey: number[] = [];
  private readonly spellingKey: number[] = [];
  private readonly keySpellings: number[][] = [];
  private readonly deviceKey: number[] = [];
  private readonly columns: UserColumns[] = [];
  /** Newest log per track (user and time), for the names of tracks no longer in the library. */
  private trackLatestUser = new Int32Array(0);
  private trackLatestAt = new Float64Array(0);
  /** Newest non-empty snapshot name per album and artist. */
  private albumNameIdx = new Int32Array(0);
  private albumNameAt = new Float64Array(0);
  private artistNameIdx = new Int32Array(0);
  private artistNameAt = new Float64Array(0);
  /** Reused for ranged reads; reads are synchronous, so one set is enough. */
  private readonly scratch = newTallies();
  private total = 0;
  private readonly inPlaceLimit: number;
  private readonly farInsertBudget: number;
  private readonly addArtists: number[] = [];
  private readonly addArtistNames: number[] = [];

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
    // Spare capacity is not saved: the first add after loading grows the arrays again.
    const columns = this.columns.map((c) => c.trimmed());
    return serialize({ format: SAVED_FORMAT, index: { ...this, columns } });
  }

  /**
   * Replaces this (empty) index with a saved one. False, leaving this index as it was, when the
   * bytes are not an index this code saved: then the caller rebuilds it from the log.
   */
  load(bytes: Uint8Array): boolean {
    let saved: Record<string, unknown>;
    try {
      const data = deserialize(bytes) as { format?: unknown; index?: Record<string, unknown> };
      if (data.format !== SAVED_FORMAT || typeof data.index !== 'object') return false;
      saved = data.index;
    } catch {
      return false;
    }
    // The live instance is the template: the saved fields must be exactly its fields. The
    // serializer keeps data but not classes, so each part gets its class back here.
    const live = this as unknown as Record<string, unknown>;
    const keys = Object.keys(live);
    if (keys.length !== Object.keys(saved).length || !keys.every((key) => key in saved)) return false;
    for (const key of keys) {
      const value = saved[key];
      if (live[key] instanceof Interner) Object.setPrototypeOf(value, Interner.prototype);
    }
    for (const columns of saved['columns'] as UserColumns[]) {
      if (!columns) continue;
      Object.setPrototypeOf(columns, UserColumns.prototype);
      reviveTallies(columns.all);
      for (const tallies of columns.byDevice.values()) reviveTallies(tallies);
    }
    reviveTallies(saved['scratch'] as Tallies);
    Object.assign(this, saved);
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
    let row = u.n;
    if (u.sorted === u.n) {
      const pos = u.n > 0 && at < u.at[u.n - 1]! ? u.upperBound(at) : u.n;
      const near = u.n - pos <= this.inPlaceLimit;
      // Far back, shifting every later row is still cheaper than merging at the next read, unless
      // many arrive between two reads (loading a log written out of order): those go to the tail.
      if (near || u.farInserts < this.farInsertBudget) {
        if (!near) u.farInserts += 1;
        if (pos < u.n) u.shift(pos);
        row = pos;
        u.sorted += 1;
      }
    }
    u.n += 1;
    u.at[row] = at;
    u.track[row] = trackIdx;
    u.album[row] = albumIdx;
    u.duration[row] = duration;
    u.device[row] = entry.device === null ? -1 : this.internDevice(entry.device);
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
    for (let i = 0; i < genres.length; i += 1) u.genFlat[u.genLen++] = this.internGenre(genres[i]!);
    if (packId(entry.id, u.idBytes, row * ID_BYTES)) {
      u.idRef[row] = -1;
    } else {
      u.idRef[row] = u.otherIds.length;
      u.otherIds.push(entry.id);
    }

    this.tallyRow(u.all, u, row, true);
    if (u.byDevice.size > 0 && u.device[row]! >= 0) {
      const perDevice = u.byDevice.get(this.deviceKey[u.device[row]!]!);
      if (perDevice) this.tallyRow(perDevice, u, row, true);
    }
    this.noteLatest(userIdx, trackIdx, albumIdx, u.albumName[row]!, artistIdxs, artistNames, at);
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
    const device = this.deviceFilter(f);
    if (!u || device === null) return { totalMs: 0, plays: 0 };
    const [lo, hi] = u.range(f.from, f.to);
    if (lo === 0 && hi === u.n) {
      const t = this.allTime(u, device);
      return { totalMs: t.ms, plays: t.plays };
    }
    let totalMs = 0;
    let plays = 0;
    const { flags, duration } = u;
    for (let row = lo; row < hi; row += 1) {
      if (flags[row]! & SKIP) continue;
      if (device !== undefined && this.deviceKey[u.device[row]!] !== device) continue;
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
    return this.top(f, 'albums', (tally) =>
      this.ranked(tally, this.albums.values, offset, limit).map((idx) =>
        this.item(tally, idx, this.albums.values[idx]!),
      ),
    );
  }

  topArtists(f: StatsFilter, offset: number, limit: number): TopItem[] {
    return this.top(f, 'artists', (tally) =>
      this.ranked(tally, this.artists.values, offset, limit).map((idx) =>
        this.item(tally, idx, this.artists.values[idx]!),
      ),
    );
  }

  topGenres(f: StatsFilter, offset: number, limit: number): TopGenre[] {
    return this.top(f, 'genres', (tally, spellings) =>
      this.ranked(tally, this.genreKeys.values, offset, limit).map((idx) => {
        const { plays, listeningMs, lastPlayedAt } = this.item(tally, idx, '');
        return { genre: this.spellingOf(idx, spellings), plays, listeningMs, lastPlayedAt };
      }),
    );
  }

  recentPlays(f: StatsFilter, offset: number, limit: number): PlayLogEntry[] {
    const u = this.userColumns(f.userId);
    const device = this.deviceFilter(f);
    if (!u || device === null || limit <= 0) return [];
    const out: PlayLogEntry[] = [];
    let skip = offset;
    for (let row = u.n - 1; row >= 0 && out.length < limit; row -= 1) {
      if (u.flags[row]! & SKIP) continue;
      if (device !== undefined && this.deviceKey[u.device[row]!] !== device) continue;
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
  activity(
    f: StatsFilter & { from: number; to: number },
    step: ActivityStepKind,
    maxSteps: number,
  ): ActivityStep[] {
    const steps: ActivityStep[] = [];
    for (let start = stepStart(f.from, step); start <= f.to; start = nextStep(start, step)) {
      steps.push({ start, plays: 0, skips: 0, listeningMs: 0 });
      if (steps.length > maxSteps) return steps;
    }
    const u = this.userColumns(f.userId);
    const device = this.deviceFilter(f);
    if (!u || device === null || steps.length === 0) return steps;
    const [lo, hi] = u.range(f.from, f.to);
    let s = 0;
    let current = steps[0]!;
    for (let row = lo; row < hi; row += 1) {
      if (device !== undefined && this.deviceKey[u.device[row]!] !== device) continue;
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

  /**
   * Visits the rows of a filter (range and device) in time order, or newest first with `reverse`,
   * until `visit` returns true. For the small reads of play-patterns.ts (devices, heatmap, span).
   */
  scanRows(f: StatsFilter, visit: (row: ScannedRow) => boolean | void, reverse = false): void {
    const u = this.userColumns(f.userId);
    const device = this.deviceFilter(f);
    if (!u || device === null) return;
    const [lo, hi] = u.range(f.from, f.to);
    for (let i = 0; i < hi - lo; i += 1) {
      const row = reverse ? hi - 1 - i : lo + i;
      const d = u.device[row]!;
      if (device !== undefined && this.deviceKey[d] !== device) continue;
      const play = (u.flags[row]! & SKIP) === 0;
      const stop = visit({ at: u.at[row]!, device: d < 0 ? null : this.devices.values[d]!, play });
      if (stop === true) return;
    }
  }

  latestEntryOfTrack(trackId: string): PlayLogEntry | undefined {
    const trackIdx = this.tracks.get(trackId);
    if (trackIdx === undefined) return undefined;
    const u = this.columns[this.trackLatestUser[trackIdx]!];
    if (!u) return undefined;
    u.ensureSorted();
    const at = this.trackLatestAt[trackIdx]!;
    let found = -1;
    for (let row = u.lowerBound(at); row < u.n && u.at[row] === at; row += 1) {
      if (u.track[row] === trackIdx) found = row;
    }
    return found < 0 ? undefined : this.entryAt(u, found);
  }

  snapshotName(kind: 'album' | 'artist', id: string): string | null {
    const idx = kind === 'album' ? this.albums.get(id) : this.artists.get(id);
    if (idx === undefined) return null;
    const names = kind === 'album' ? this.albumNameIdx : this.artistNameIdx;
    const name = idx < names.length ? names[idx]! : -1;
    return name < 0 ? null : this.names.values[name]!;
  }

  private internGenre(raw: string): number {
    const idx = this.rawGenres.intern(raw);
    if (idx === this.rawGenreKey.length) {
      const spelling = raw.trim();
      if (spelling === '') {
        this.rawGenreSpelling.push(-1);
        this.rawGenreKey.push(-1);
      } else {
        const spellingIdx = this.genreSpellings.intern(spelling);
        if (spellingIdx === this.spellingKey.length) {
          const keyIdx = this.genreKeys.intern(spelling.toLowerCase());
          this.spellingKey.push(keyIdx);
          (this.keySpellings[keyIdx] ??= []).push(spellingIdx);
        }
        this.rawGenreSpelling.push(spellingIdx);
        this.rawGenreKey.push(this.spellingKey[spellingIdx]!);
      }
    }
    return idx;
  }

  private internDevice(device: string): number {
    const idx = this.devices.intern(device);
    if (idx === this.deviceKey.length) this.deviceKey.push(this.deviceKeys.intern(device.toLowerCase()));
    return idx;
  }

  private noteLatest(
    userIdx: number,
    trackIdx: number,
    albumIdx: number,
    albumName: number,
    artistIdxs: number[],
    artistNames: number[],
    at: number,
  ): void {
    if (trackIdx >= this.trackLatestAt.length)
      [this.trackLatestAt, this.trackLatestUser] = grownLatest(
        this.trackLatestAt,
        this.trackLatestUser,
        trackIdx,
      );
    keepLatest(this.trackLatestAt, this.trackLatestUser, trackIdx, at, userIdx);
    if (albumIdx >= 0 && albumName >= 0 && this.names.values[albumName] !== '') {
      if (albumIdx >= this.albumNameAt.length)
        [this.albumNameAt, this.albumNameIdx] = grownLatest(this.albumNameAt, this.albumNameIdx, albumIdx);
      keepLatest(this.albumNameAt, this.albumNameIdx, albumIdx, at, albumName);
    }
    for (let i = 0; i < artistIdxs.length; i += 1) {
      const artistIdx = artistIdxs[i]!;
      const name = artistNames[i]!;
      if (this.names.values[name] === '') continue;
      if (artistIdx >= this.artistNameAt.length)
        [this.artistNameAt, this.artistNameIdx] = grownLatest(
          this.artistNameAt,
          this.artistNameIdx,
          artistIdx,
        );
      keepLatest(this.artistNameAt, this.artistNameIdx, artistIdx, at, name);
    }
  }

  private userColumns(userId: string): UserColumns | undefined {
    const idx = this.users.get(userId);
    const u = idx === undefined ? undefined : this.columns[idx];
    u?.ensureSorted();
    return u;
  }

  /** The device key to match, undefined for no filter, or null when no log has that device. */
  private deviceFilter(f: StatsFilter): number | undefined | null {
    if (f.device === undefined) return undefined;
    return this.deviceKeys.get(f.device.toLowerCase()) ?? null;
  }

  /** Adds row `row` of `u` to `t`: only the kinds asked for, or all of them. */
  private tallyRow(t: Tallies, u: UserColumns, row: number, all: boolean, kind?: Kind): void {
    const play = (u.flags[row]! & SKIP) === 0;
    const ms = u.duration[row]!;
    const at = u.at[row]!;
    if (play && all) {
      t.plays += 1;
      t.ms += ms;
    }
    if (all || kind === 'tracks') t.tracks.bump(u.track[row]!, play, ms, at);
    if ((all || kind === 'albums') && u.album[row]! >= 0) t.albums.bump(u.album[row]!, play, ms, at);
    if (all || kind === 'artists') {
      const start = u.artStart[row]!;
      const end = start + u.artCount[row]!;
      for (let i = start; i < end; i += 1) t.artists.bump(u.artFlat[i]!, play, ms, at);
    }
    if (all || kind === 'genres') {
      const start = u.genStart[row]!;
      const end = start + u.genCount[row]!;
      for (let i = start; i < end; i += 1) {
        const raw = u.genFlat[i]!;
        const key = this.rawGenreKey[raw]!;
        if (key < 0) continue;
        const spelling = this.rawGenreSpelling[raw]!;
        // A play counts once per genre group, and once per spelling, however often it is tagged.
        let seenKey = false;
        let seenSpelling = false;
        for (let j = start; j < i; j += 1) {
          const other = u.genFlat[j]!;
          if (this.rawGenreKey[other] === key) seenKey = true;
          if (this.rawGenreSpelling[other] === spelling) seenSpelling = true;
        }
        if (!seenKey) t.genres.bump(key, play, ms, at);
        if (!seenSpelling && play) t.spellings.bump(spelling, true, ms, at);
      }
    }
  }

  /**
   * Sums for a filter: the all-time sums when the filter covers every row and has no device,
   * otherwise a scan of the range into the scratch tallies (reset once `read` is done).
   */
  private top<T>(f: StatsFilter, kind: Kind, read: (tally: Tally, spellings: Tally) => T[]): T[] {
    const u = this.userColumns(f.userId);
    const device = this.deviceFilter(f);
    if (!u || device === null) return [];
    const [lo, hi] = u.range(f.from, f.to);
    if (lo === 0 && hi === u.n) {
      const t = this.allTime(u, device);
      return read(t[kind], t.spellings);
    }
    return this.scan(u, lo, hi, device, kind, read);
  }

  /** All-time sums of a user, or of one of its devices (built by one scan the first time). */
  private allTime(u: UserColumns, device: number | undefined): Tallies {
    if (device === undefined) return u.all;
    let t = u.byDevice.get(device);
    if (!t) {
      t = newTallies();
      for (let row = 0; row < u.n; row += 1) {
        if (this.deviceKey[u.device[row]!] === device) this.tallyRow(t, u, row, true);
      }
      u.byDevice.set(device, t);
    }
    return t;
  }

  private scan<T>(
    u: UserColumns,
    lo: number,
    hi: number,
    device: number | undefined,
    kind: Kind,
    read: (tally: Tally, spellings: Tally) => T[],
  ): T[] {
    const t = this.scratch;
    try {
      for (let row = lo; row < hi; row += 1) {
        if (device !== undefined && this.deviceKey[u.device[row]!] !== device) continue;
        this.tallyRow(t, u, row, false, kind);
      }
      return read(t[kind], t.spellings);
    } finally {
      t[kind].reset();
      t.spellings.reset();
    }
  }

  /** Ranking of every top list: plays desc, latest play desc, id asc. */
  private ranked(tally: Tally, ids: string[], offset: number, limit: number): number[] {
    const { plays, last } = tally;
    const compare: Comparator = (a, b) =>
      plays[b]! - plays[a]! || last[b]! - last[a]! || compareStrings(ids[a]!, ids[b]!);
    return select(tally.played(), compare, offset, limit);
  }

  private item(tally: Tally, idx: number, id: string): TopItem {
    return { id, plays: tally.plays[idx]!, listeningMs: tally.ms[idx]!, lastPlayedAt: tally.last[idx]! };
  }

  /** The most frequent spelling of a genre group among the counted plays; a tie goes to the smallest. */
  private spellingOf(keyIdx: number, spellings: Tally): string {
    let best = '';
    let bestCount = -1;
    for (const s of this.keySpellings[keyIdx] ?? []) {
      const count = s < spellings.plays.length ? spellings.plays[s]! : 0;
      const value = this.genreSpellings.values[s]!;
      if (count > bestCount || (count === bestCount && value < best)) {
        best = value;
        bestCount = count;
      }
    }
    return best;
  }

  private recent(
    f: StatsFilter,
    kind: 'albums' | 'artists',
    ids: string[],
    offset: number,
    limit: number,
  ): RecentItem[] {
    const u = this.userColumns(f.userId);
    const device = this.deviceFilter(f);
    if (!u || device === null) return [];
    const read = (tally: Tally) => {
      const { last, plays } = tally;
      const compare: Comparator = (a, b) => last[b]! - last[a]! || compareStrings(ids[a]!, ids[b]!);
      return select(tally.played(), compare, offset, limit).map((idx) => ({
        id: ids[idx]!,
        lastPlayedAt: last[idx]!,
        plays: plays[idx]!,
      }));
    };
    return read(this.allTime(u, device)[kind]);
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
      genres.push(this.rawGenres.values[u.genFlat[i]!]!);
    const ref = u.idRef[row]!;
    const id =
      ref >= 0
        ? u.otherIds[ref]!
        : Buffer.from(u.idBytes.buffer, u.idBytes.byteOffset + row * ID_BYTES, ID_BYTES).toString(
            'base64url',
          );
    const album = u.album[row]!;
    const device = u.device[row]!;
    const trackName = u.trackName[row]!;
    const albumName = u.albumName[row]!;
    return {
      id,
      userId: this.users.values[u.userIdx]!,
      trackId: this.tracks.values[u.track[row]!]!,
      albumId: album < 0 ? null : this.albums.values[album]!,
      artistIds,
      genres,
      durationMs: u.duration[row]!,
      device: device < 0 ? null : this.devices.values[device]!,
      type: u.flags[row]! & SKIP ? 'skip' : 'play',
      at: u.at[row]!,
      explicitAt: (u.flags[row]! & EXPLICIT) !== 0,
      trackName: trackName < 0 ? null : names[trackName]!,
      albumName: albumName < 0 ? null : names[albumName]!,
      artistNames,
    };
  }
}
