import { nextStep, stepStart, type DateStep } from '../../domain/dates.js';
import type { PlayLogEntry } from '../../store/play-log.js';
import { decodeSnapshotText, snapshotText, type PlaySnapshot } from '../../store/play-log-codec.js';
import { DeviceKeys } from './devices.js';
import { GenreGroups } from './genres.js';
import { Interner } from './interner.js';
import { LatestNames } from './latest-names.js';
import { capacityFor, grown } from './columns.js';
import { ID_BYTES, packId, unpackId } from './log-ids.js';
import { logRows, type LogRows } from './log-rows.js';
import { Ranking } from './ranking.js';
import type { ActivityStep, RecentItem, StatsFilter, TopGenre, TopItem, TopTrack } from './results.js';
import { foldAll, foldKind, listening, snapshotSums } from './scans.js';
import {
  decodeSavedIndex,
  encodeBlock,
  encodeSavedIndex,
  RECORD_BYTES,
  SavedRecords,
  type SavedBlock,
} from './saved-index.js';
import { SnapshotTable } from './snapshots.js';
import { newTallies, Tally, type Kind, type Tallies } from './tally.js';
import { byPlays, byRecency, select, type Comparator } from './top-n.js';
import { EXPLICIT, FAR_INSERT_BUDGET, IN_PLACE_LIMIT, OTHER_ID, SKIP, UserColumns } from './user-columns.js';

/** The lists kept ranked for all-time reads (ranking.ts). */
type RankedList = Kind | 'recentAlbums' | 'recentArtists';

/** One log as scanRows shows it. */
export interface ScannedRow {
  at: number;
  device: string | null;
  play: boolean;
}

/**
 * Every play log entry, indexed for the statistics reads (docs/API.md, Statistics): built from the
 * log at start and kept current by `add`. Strings are interned to small integers; what a track was
 * when played is a snapshot numbered once (snapshots.ts); each user's logs are time-sorted typed
 * columns of 31 bytes a log (user-columns.ts). A ranged read is a binary search, a scan of the range
 * into sums per snapshot, and a fold of those into tracks, albums, artists or genres (scans.ts).
 * All-time reads use sums and rankings kept current on every add.
 */
export class StatsIndex {
  private readonly users = new Interner();
  private readonly tracks = new Interner();
  private readonly albums = new Interner();
  private readonly artists = new Interner();
  /** Snapshot names of tracks, albums and artists. */
  private readonly names = new Interner();
  private readonly genres = new GenreGroups();
  private readonly devices = new DeviceKeys();
  private readonly snapshots = new SnapshotTable({
    tracks: this.tracks,
    albums: this.albums,
    artists: this.artists,
    names: this.names,
    genres: this.genres,
  });
  /** Per user index, that user's logs. */
  private readonly columns: UserColumns[] = [];
  /**
   * Names and newest logs for items gone from the library: made from the newest log of each
   * snapshot at the first read that needs them (a bulk load does not pay for them), then kept
   * current by `add`.
   */
  private latestNames: LatestNames | undefined;
  /** Per snapshot, the time and user of its newest log. */
  private snapshotAt = new Float64Array(0);
  private snapshotUser = new Int32Array(0);
  /** Reused for ranged reads; reads are synchronous, so one set is enough. */
  private readonly scratch = newTallies();
  private readonly scratchSnapshots = new Tally();
  private total = 0;
  private readonly inPlaceLimit: number;
  private readonly farInsertBudget: number;
  /** What was added since the last save, in the saved form (saved-index.ts). */
  private unsaved = new SavedRecords();

  /** The options exist for tests, to exercise the unsorted tail with few entries. */
  constructor(options: { inPlaceLimit?: number; farInsertBudget?: number } = {}) {
    this.inPlaceLimit = options.inPlaceLimit ?? IN_PLACE_LIMIT;
    this.farInsertBudget = options.farInsertBudget ?? FAR_INSERT_BUDGET;
  }

  get size(): number {
    return this.total;
  }

  /**
   * What was added since the last call (or since `load`), to append to the saved index: the saved
   * index only grows, so a save writes just this (play-index-snapshot.ts).
   */
  takeUnsaved(): Uint8Array[] {
    const block = this.unsaved.block(this.savedTables(this.snapshots.numberedByLog));
    this.unsaved = new SavedRecords(this.tableCounts());
    return encodeBlock(block);
  }

  /** The whole index as one saved block, its snapshots as texts (it loads without a log). */
  save(): Uint8Array {
    const records = new SavedRecords();
    for (const u of this.columns) {
      if (!u) continue;
      for (let row = 0; row < u.n; row += 1) records.addRow(u, row);
    }
    return encodeSavedIndex([records.block(this.savedTables(false))]);
  }

  /**
   * Adds saved blocks to this empty index. False when the bytes are not an index this code saved:
   * then the caller rebuilds it from the log (in a new index). An index saved by an older Melon
   * (format 1) loads too. `logSnapshots`: the play log's snapshots, for blocks that number
   * snapshots as the log does.
   */
  load(bytes: Uint8Array | Uint8Array[], logSnapshots: readonly PlaySnapshot[] = []): boolean {
    if (this.total > 0 || this.snapshots.count > 0) return false;
    const saved = decodeSavedIndex(Array.isArray(bytes) ? bytes : [bytes]);
    if (!saved) return false;
    if (saved.kind === 'entries') {
      for (const entry of saved.entries) this.add(entry);
    } else {
      // Checked whole first: a load that fails must leave the index empty, for the rebuild.
      const defined = blocksHold(saved.blocks, logSnapshots);
      if (!defined) return false;
      saved.blocks.forEach((block, i) => this.addBlock(block, defined[i]!));
    }
    this.unsaved = new SavedRecords(this.tableCounts());
    this.settle();
    return true;
  }

  /** Drops spare room after a bulk load (the log read at start). */
  /**
   * After a bulk load (the log read at start): drops spare room and makes what reads would
   * otherwise make at their first call by a scan of every row (all-time sums per kind and per
   * device), so no read stalls the server for it. Rankings are made at their first read (a sort
   * of the items, ~10 ms each): six per user would add a second to a start.
   */
  settle(): void {
    for (const u of this.columns) {
      if (!u) continue;
      u.trim();
      u.ensureSorted();
      this.allTallies(u);
      this.buildDeviceTallies(u);
    }
  }

  /** All-time sums of each of a user's devices (the ones not made yet), in one pass over the rows. */
  private buildDeviceTallies(u: UserColumns): void {
    const keyOf = this.devices.keyOf;
    const bySnapshot = new Map<number, Tally>();
    const { device, snap, flags, at } = u;
    let lastKey = -1;
    let sums: Tally | undefined;
    for (let row = 0; row < u.n; row += 1) {
      const d = device[row]!;
      if (d === 0) continue;
      const key = keyOf[d - 1]!;
      if (key !== lastKey) {
        lastKey = key;
        sums = u.byDevice.has(key) ? undefined : bySnapshot.get(key);
        if (!sums && !u.byDevice.has(key)) bySnapshot.set(key, (sums = new Tally()));
      }
      sums?.bump(snap[row]!, (flags[row]! & SKIP) === 0, 0, at[row]!);
    }
    for (const [key, perSnapshot] of bySnapshot) {
      const tallies = newTallies();
      foldAll(tallies, perSnapshot, this.snapshots);
      u.byDevice.set(key, tallies);
    }
  }

  add(entry: PlayLogEntry, logSnapshot?: number): void {
    const userIdx = this.users.intern(entry.userId);
    const s = this.snapshots.intern(entry, logSnapshot);
    const device = entry.device === null ? 0 : this.devices.intern(entry.device) + 1;
    const flags = (entry.type === 'skip' ? SKIP : 0) | (entry.explicitAt ? EXPLICIT : 0);
    const u = this.place(userIdx, entry.at, s, device, flags);
    const row = this.lastRow;
    if (!packId(entry.id, u.idBytes, row * ID_BYTES)) {
      u.flags[row] = flags | OTHER_ID;
      new DataView(u.idBytes.buffer, u.idBytes.byteOffset).setUint32(row * ID_BYTES, u.otherIds.length, true);
      u.otherIds.push(entry.id);
    }
    this.unsaved.addRow(u, row);
  }

  /** The row `place` last filled. */
  private lastRow = 0;

  /** Adds a log row to the user's columns and to every sum it counts in. */
  private place(userIdx: number, at: number, s: number, device: number, flags: number): UserColumns {
    const u = (this.columns[userIdx] ??= new UserColumns(userIdx));
    u.reserve(u.n + 1);
    if (device >= 0xffff) u.widenDevices(device);
    const row = u.insertRow(at, this.inPlaceLimit, this.farInsertBudget);
    u.at[row] = at;
    u.snap[row] = s;
    u.device[row] = device;
    u.flags[row] = flags;
    this.lastRow = row;

    const play = (flags & SKIP) === 0;
    const table = this.snapshots;
    u.bySnapshot.bump(s, play, table.duration[s]!, at);
    if (play) {
      u.plays += 1;
      u.listeningMs += table.duration[s]!;
    }
    if (u.all) this.count(u.all, s, play, at, u);
    if (device > 0 && u.byDevice.size > 0) {
      const perDevice = u.byDevice.get(this.devices.keyOf[device - 1]!);
      if (perDevice) this.count(perDevice, s, play, at);
    }
    if (s >= this.snapshotAt.length) {
      const cap = capacityFor(s + 1, this.snapshotAt.length);
      this.snapshotAt = grown(this.snapshotAt, cap).fill(-Infinity, this.snapshotAt.length);
      this.snapshotUser = grown(this.snapshotUser, cap);
    }
    if (at >= this.snapshotAt[s]!) {
      this.snapshotAt[s] = at;
      this.snapshotUser[s] = userIdx;
    }
    if (this.latestNames) this.note(this.latestNames, s, userIdx, at);
    this.total += 1;
    return u;
  }

  /** Adds a saved block's tables and rows. */
  /** Adds a saved block's tables and rows; `snapshots` are the ones it defines (checked by blocksHold). */
  private addBlock(block: SavedBlock, snapshots: { fromLog: boolean; fields: PlaySnapshot[] }): void {
    const expect = (interned: number, wanted: number) => {
      if (interned !== wanted) throw new Error('saved index: tables out of step');
    };
    for (const id of block.users) expect(this.users.intern(id), this.users.count - 1);
    for (const name of block.devices) expect(this.devices.intern(name), this.devices.names.count - 1);
    for (const fields of snapshots.fields) {
      const n = this.snapshots.count;
      expect(this.snapshots.intern(fields, snapshots.fromLog ? n : undefined), n);
    }
    const { records, otherIds } = block;
    const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
    const userCount = this.users.count;
    const snapshotCount = this.snapshots.count;
    // Room for the block's rows at once, rather than growing step by step.
    const rows = new Int32Array(userCount);
    for (let r = 0; r < block.count; r += 1) {
      const userIdx = view.getUint32(r * RECORD_BYTES + 8, true);
      rows[userIdx] = rows[userIdx]! + 1;
    }
    for (let userIdx = 0; userIdx < userCount; userIdx += 1) {
      if (rows[userIdx] === 0) continue;
      const u = (this.columns[userIdx] ??= new UserColumns(userIdx));
      u.reserve(u.n + rows[userIdx]!);
    }
    for (let r = 0; r < block.count; r += 1) {
      const o = r * RECORD_BYTES;
      const at = view.getFloat64(o, true);
      const userIdx = view.getUint32(o + 8, true);
      const s = view.getUint32(o + 12, true);
      const device = view.getUint32(o + 16, true);
      const flags = view.getUint32(o + 20, true);
      if (userIdx >= userCount || s >= snapshotCount || device > this.devices.names.count)
        throw new Error('saved index: a row refers to nothing');
      const u = this.place(userIdx, at, s, device, flags);
      const row = this.lastRow;
      if (flags & OTHER_ID) {
        const id = otherIds[view.getUint32(o + 24, true)];
        if (id === undefined) throw new Error('saved index: a row refers to nothing');
        new DataView(u.idBytes.buffer, u.idBytes.byteOffset).setUint32(
          row * ID_BYTES,
          u.otherIds.length,
          true,
        );
        u.otherIds.push(id);
      } else {
        const idBytes = u.idBytes;
        const to = row * ID_BYTES;
        for (let b = 0; b < ID_BYTES; b += 1) idBytes[to + b] = records[o + 24 + b]!;
      }
    }
  }

  private tableCounts() {
    return { users: this.users.count, devices: this.devices.names.count, snapshots: this.snapshots.count };
  }

  /** The tables for a block; snapshots as the log numbers them (`byLog`), or as texts. */
  private savedTables(byLog: boolean) {
    const table = this.snapshots;
    return {
      users: this.users.values,
      devices: this.devices.names.values,
      snapshots: (from: number) =>
        byLog
          ? { logSnapshots: table.count - from, texts: [] }
          : {
              logSnapshots: 0,
              texts: table.numberedByLog
                ? Array.from({ length: table.count - from }, (_, i) => snapshotText(table.fields(from + i)))
                : table.textsFrom(from),
            },
    };
  }

  findRetry(userId: string, trackId: string, type: 'play' | 'skip', at: number): PlayLogEntry | undefined {
    const u = this.userColumns(userId);
    const trackIdx = this.tracks.get(trackId);
    if (!u || trackIdx === undefined) return undefined;
    const want = EXPLICIT | (type === 'skip' ? SKIP : 0);
    const track = this.snapshots.track;
    for (let row = u.lowerBound(at); row < u.n && u.at[row] === at; row += 1) {
      if (track[u.snap[row]!] === trackIdx && (u.flags[row]! & (EXPLICIT | SKIP)) === want)
        return this.entryAt(u, row);
    }
    return undefined;
  }

  listeningTime(f: StatsFilter): { totalMs: number; plays: number } {
    const u = this.userColumns(f.userId);
    const device = this.devices.filter(f.device);
    if (!u || device === null) return { totalMs: 0, plays: 0 };
    const [lo, hi] = u.range(f.from, f.to);
    if (lo === 0 && hi === u.n) {
      if (device === undefined) return { totalMs: u.listeningMs, plays: u.plays };
      const t = this.deviceTallies(u, device);
      return { totalMs: t.ms, plays: t.plays };
    }
    return this.withRangeSums(u, lo, hi, device, (sums) => listening(sums, this.snapshots));
  }

  topTracks(f: StatsFilter, offset: number, limit: number): TopTrack[] {
    return this.top(f, 'tracks', offset, limit, (tally, ranks) =>
      ranks.map((idx) => ({ ...this.item(tally, idx, this.tracks.values[idx]!), skips: tally.skips[idx]! })),
    );
  }

  topAlbums(f: StatsFilter, offset: number, limit: number): TopItem[] {
    return this.top(f, 'albums', offset, limit, (tally, ranks) =>
      ranks.map((idx) => this.item(tally, idx, this.albums.values[idx]!)),
    );
  }

  topArtists(f: StatsFilter, offset: number, limit: number): TopItem[] {
    return this.top(f, 'artists', offset, limit, (tally, ranks) =>
      ranks.map((idx) => this.item(tally, idx, this.artists.values[idx]!)),
    );
  }

  topGenres(f: StatsFilter, offset: number, limit: number): TopGenre[] {
    return this.top(f, 'genres', offset, limit, (tally, ranks, spellings) =>
      ranks.map((idx) => {
        const { plays, listeningMs, lastPlayedAt } = this.item(tally, idx, '');
        return { genre: this.genres.spellingOf(idx, spellings.plays), plays, listeningMs, lastPlayedAt };
      }),
    );
  }

  recentPlays(f: StatsFilter, offset: number, limit: number): PlayLogEntry[] {
    const u = this.userColumns(f.userId);
    const device = this.devices.filter(f.device);
    if (!u || device === null || limit <= 0) return [];
    const accept = device === undefined ? undefined : this.acceptDevice(device);
    const out: PlayLogEntry[] = [];
    let skip = offset;
    for (let row = u.n - 1; row >= 0 && out.length < limit; row -= 1) {
      if (u.flags[row]! & SKIP) continue;
      if (accept && accept[u.device[row]!] === 0) continue;
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
    const accept = device === undefined ? undefined : this.acceptDevice(device);
    const [lo, hi] = u.range(f.from, f.to);
    const duration = this.snapshots.duration;
    let s = 0;
    let current = steps[0]!;
    for (let row = lo; row < hi; row += 1) {
      if (accept && accept[u.device[row]!] === 0) continue;
      const at = u.at[row]!;
      while (s + 1 < steps.length && at >= steps[s + 1]!.start) current = steps[++s]!;
      if (u.flags[row]! & SKIP) {
        current.skips += 1;
      } else {
        current.plays += 1;
        current.listeningMs += duration[u.snap[row]!]!;
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
    const device = this.devices.filter(f.device);
    if (!u || device === null) return;
    const accept = device === undefined ? undefined : this.acceptDevice(device);
    const [lo, hi] = u.range(f.from, f.to);
    for (let i = 0; i < hi - lo; i += 1) {
      const row = reverse ? hi - 1 - i : lo + i;
      const d = u.device[row]!;
      if (accept && accept[d] === 0) continue;
      const play = (u.flags[row]! & SKIP) === 0;
      // Device 0 is "no device"; device d is the (d - 1)th name.
      const name = d === 0 ? null : this.devices.names.values[d - 1]!;
      if (visit({ at: u.at[row]!, device: name, play }) === true) return;
    }
  }

  /** The latest names, made from the newest log of each snapshot the first time. */
  private get latest(): LatestNames {
    if (!this.latestNames) {
      const latest = new LatestNames();
      for (let s = 0; s < this.snapshots.count; s += 1) {
        if (this.snapshotAt[s]! > -Infinity) this.note(latest, s, this.snapshotUser[s]!, this.snapshotAt[s]!);
      }
      this.latestNames = latest;
    }
    return this.latestNames;
  }

  private note(latest: LatestNames, s: number, userIdx: number, at: number): void {
    const table = this.snapshots;
    latest.note(
      this.names.values,
      userIdx,
      table.track[s]!,
      table.album[s]!,
      table.albumName[s]!,
      table.artists.of(s),
      table.artistNames.of(s),
      at,
    );
  }

  latestEntryOfTrack(trackId: string): PlayLogEntry | undefined {
    const trackIdx = this.tracks.get(trackId);
    if (trackIdx === undefined) return undefined;
    const u = this.columns[this.latest.trackUserOf(trackIdx)];
    if (!u) return undefined;
    u.ensureSorted();
    const at = this.latest.trackAtOf(trackIdx);
    const track = this.snapshots.track;
    let found = -1;
    for (let row = u.lowerBound(at); row < u.n && u.at[row] === at; row += 1) {
      if (track[u.snap[row]!] === trackIdx) found = row;
    }
    return found < 0 ? undefined : this.entryAt(u, found);
  }

  snapshotName(kind: 'album' | 'artist', id: string): string | null {
    const idx = kind === 'album' ? this.albums.get(id) : this.artists.get(id);
    if (idx === undefined) return null;
    const name = this.latest.nameOf(kind, idx);
    return name < 0 ? null : this.names.values[name]!;
  }

  /**
   * A user's sorted columns with the snapshot table their rows point at, for the row-by-row queries
   * of ./log-rows.ts (the listening history's).
   */
  rowsOf(userId: string): LogRows | undefined {
    const u = this.userColumns(userId);
    return (
      u && logRows(u, this.snapshots, this.tracks.values, this.artists.values, (row) => this.entryAt(u, row))
    );
  }

  private userColumns(userId: string): UserColumns | undefined {
    const idx = this.users.get(userId);
    const u = idx === undefined ? undefined : this.columns[idx];
    u?.ensureSorted();
    return u;
  }

  /** Per device name index + 1, 1 when its key is `key`. */
  private acceptDevice(key: number): Uint8Array {
    const keyOf = this.devices.keyOf;
    const accept = new Uint8Array(keyOf.length + 1);
    for (let i = 0; i < keyOf.length; i += 1) if (keyOf[i] === key) accept[i + 1] = 1;
    return accept;
  }

  /** Sums per snapshot of rows [lo, hi) (of one device key, unless undefined), handed to `read`. */
  private withRangeSums<T>(
    u: UserColumns,
    lo: number,
    hi: number,
    device: number | undefined,
    read: (sums: Tally) => T,
  ): T {
    const sums = this.scratchSnapshots;
    try {
      sums.ensure(this.snapshots.count);
      snapshotSums(sums, u, lo, hi, device === undefined ? undefined : this.acceptDevice(device));
      return read(sums);
    } finally {
      sums.reset();
    }
  }

  /**
   * The ranks [offset, offset + limit) of a top list, handed to `read` with the sums they index: an
   * all-time ranking kept current, all-time sums of a device, or a range's sums made for this read.
   */
  private top<T>(
    f: StatsFilter,
    kind: Kind,
    offset: number,
    limit: number,
    read: (tally: Tally, ranks: number[], spellings: Tally) => T[],
  ): T[] {
    const u = this.userColumns(f.userId);
    const device = this.devices.filter(f.device);
    if (!u || device === null) return [];
    const [lo, hi] = u.range(f.from, f.to);
    const ids = this.idsOf(kind);
    if (lo === 0 && hi === u.n) {
      if (device === undefined) {
        const all = this.allTallies(u);
        return read(all[kind], this.ranking(u, kind).page(offset, limit), all.spellings);
      }
      const t = this.deviceTallies(u, device);
      return read(t[kind], select(t[kind].played(), byPlays(t[kind], ids), offset, limit), t.spellings);
    }
    return this.withRangeSums(u, lo, hi, device, (sums) => {
      const scratch = this.scratch;
      try {
        foldKind(scratch, sums, this.snapshots, kind);
        const tally = scratch[kind];
        return read(tally, select(tally.played(), byPlays(tally, ids), offset, limit), scratch.spellings);
      } finally {
        scratch[kind].reset();
        scratch.spellings.reset();
      }
    });
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
    let tally: Tally;
    let ranks: number[];
    if (device === undefined) {
      tally = this.allTallies(u)[kind];
      ranks = this.ranking(u, kind === 'albums' ? 'recentAlbums' : 'recentArtists').page(offset, limit);
    } else {
      tally = this.deviceTallies(u, device)[kind];
      ranks = select(tally.played(), byRecency(tally, ids), offset, limit);
    }
    return ranks.map((idx) => ({ id: ids[idx]!, lastPlayedAt: tally.last[idx]!, plays: tally.plays[idx]! }));
  }

  private idsOf(kind: Kind): string[] {
    switch (kind) {
      case 'tracks':
        return this.tracks.values;
      case 'albums':
        return this.albums.values;
      case 'artists':
        return this.artists.values;
      case 'genres':
        return this.genres.keys.values;
    }
  }

  /** A user's all-time sums per kind: folded from the sums per snapshot at the first read, then kept current. */
  private allTallies(u: UserColumns): Tallies {
    if (!u.all) {
      const all = newTallies();
      foldAll(all, u.bySnapshot, this.snapshots);
      u.all = all;
    }
    return u.all;
  }

  /** All-time sums of one of a user's devices: one scan the first time, then kept current by `add`. */
  private deviceTallies(u: UserColumns, device: number): Tallies {
    let t = u.byDevice.get(device);
    if (!t) {
      const tallies = newTallies();
      this.withRangeSums(u, 0, u.n, device, (sums) => foldAll(tallies, sums, this.snapshots));
      u.byDevice.set(device, tallies);
      t = tallies;
    }
    return t;
  }

  private ranking(u: UserColumns, list: RankedList): Ranking {
    let ranking = u.rankings.get(list);
    if (!ranking) {
      const all = this.allTallies(u);
      const kind: Kind = list === 'recentAlbums' ? 'albums' : list === 'recentArtists' ? 'artists' : list;
      const tally = all[kind];
      const ids = this.idsOf(kind);
      const order: () => Comparator = list === kind ? () => byPlays(tally, ids) : () => byRecency(tally, ids);
      ranking = new Ranking(tally, order);
      u.rankings.set(list, ranking);
    }
    return ranking;
  }

  /** Counts a log of snapshot `s` in `t`, moving it up the rankings of `u` when given. */
  private count(t: Tallies, s: number, play: boolean, at: number, u?: UserColumns): void {
    const table = this.snapshots;
    const ms = table.duration[s]!;
    if (play) {
      t.plays += 1;
      t.ms += ms;
    }
    const bump = (kind: Kind, tally: Tally, idx: number, recent?: RankedList) => {
      const top = u?.rankings.get(kind);
      const latest = recent && u?.rankings.get(recent);
      const topPos = top ? top.before(idx) : -1;
      const latestPos = latest ? latest.before(idx) : -1;
      tally.bump(idx, play, ms, at);
      top?.after(idx, topPos);
      latest?.after(idx, latestPos);
    };
    bump('tracks', t.tracks, table.track[s]!);
    const album = table.album[s]!;
    if (album >= 0) bump('albums', t.albums, album, 'recentAlbums');
    const { artists, genreKeys, spellings } = table;
    for (let i = artists.start[s]!; i < artists.start[s + 1]!; i += 1)
      bump('artists', t.artists, artists.values[i]!, 'recentArtists');
    for (let i = genreKeys.start[s]!; i < genreKeys.start[s + 1]!; i += 1)
      bump('genres', t.genres, genreKeys.values[i]!);
    if (play) {
      for (let i = spellings.start[s]!; i < spellings.start[s + 1]!; i += 1)
        t.spellings.bump(spellings.values[i]!, true, ms, at);
    }
  }

  private item(tally: Tally, idx: number, id: string): TopItem {
    return { id, plays: tally.plays[idx]!, listeningMs: tally.ms[idx]!, lastPlayedAt: tally.last[idx]! };
  }

  /** Rebuilds the logged entry of a row from the columns. */
  private entryAt(u: UserColumns, row: number): PlayLogEntry {
    const flags = u.flags[row]!;
    const device = u.device[row]!;
    const id =
      flags & OTHER_ID
        ? u.otherIds[new DataView(u.idBytes.buffer, u.idBytes.byteOffset).getUint32(row * ID_BYTES, true)]!
        : unpackId(u.idBytes, row * ID_BYTES);
    const s = this.snapshots.fields(u.snap[row]!);
    return {
      id,
      userId: this.users.values[u.userIdx]!,
      trackId: s.trackId,
      albumId: s.albumId,
      artistIds: s.artistIds,
      genres: s.genres,
      durationMs: s.durationMs,
      device: device === 0 ? null : this.devices.names.values[device - 1]!,
      type: flags & SKIP ? 'skip' : 'play',
      at: u.at[row]!,
      explicitAt: (flags & EXPLICIT) !== 0,
      trackName: s.trackName,
      albumName: s.albumName,
      artistNames: s.artistNames,
    };
  }
}

/**
 * Whether saved blocks are whole: each table entry new, each snapshot readable, each row referring
 * to entries. If so, the snapshots each block defines.
 */
function blocksHold(
  blocks: SavedBlock[],
  logSnapshots: readonly PlaySnapshot[],
): { fromLog: boolean; fields: PlaySnapshot[] }[] | undefined {
  const users = new Set<string>();
  const devices = new Set<string>();
  const texts = new Set<string>();
  let snapshots = 0;
  const fresh = (seen: Set<string>, values: string[]) =>
    values.every((v) => !seen.has(v) && seen.add(v) !== undefined);
  const defined: { fromLog: boolean; fields: PlaySnapshot[] }[] = [];
  for (const block of blocks) {
    if (!fresh(users, block.users) || !fresh(devices, block.devices)) return undefined;
    // A block numbers its snapshots as the log does, or lists their texts (an index not fed by a log).
    if (block.logSnapshots > 0 && block.snapshots.length > 0) return undefined;
    let fields: PlaySnapshot[];
    if (block.logSnapshots > 0) {
      fields = logSnapshots.slice(snapshots, snapshots + block.logSnapshots);
      if (fields.length !== block.logSnapshots || texts.size > 0) return undefined;
    } else {
      fields = [];
      for (const text of block.snapshots) {
        const snapshot = decodeSnapshotText(text);
        if (!snapshot || !fresh(texts, [snapshotText(snapshot)])) return undefined;
        fields.push(snapshot);
      }
    }
    defined.push({ fromLog: block.logSnapshots > 0, fields });
    snapshots += fields.length;
    const view = new DataView(block.records.buffer, block.records.byteOffset, block.records.byteLength);
    for (let o = 0; o < block.count * RECORD_BYTES; o += RECORD_BYTES) {
      if (
        view.getUint32(o + 8, true) >= users.size ||
        view.getUint32(o + 12, true) >= snapshots ||
        view.getUint32(o + 16, true) > devices.size ||
        !Number.isFinite(view.getFloat64(o, true)) ||
        (view.getUint32(o + 20, true) & OTHER_ID && view.getUint32(o + 24, true) >= block.otherIds.length)
      )
        return undefined;
    }
  }
  return defined;
}
