import type { DateStep } from '../../domain/dates.js';
import type { PlayLogEntry, PlaySnapshot } from '../../domain/play.js';
import { ROWS_PER_TURN } from './columns/columns.js';
import {
  addBlock,
  blocksHold,
  savedTables,
  savedWhole,
  tableCounts,
  type PlaceRow,
} from './persistence/index-persistence.js';
import type { KeptCounts } from './columns/kept-counts.js';
import { IndexTables } from './tables/index-tables.js';
import type { TrackNow } from './tables/snapshots.js';
import { LatestLogs } from './tables/latest-logs.js';
import type { LogRows } from './columns/log-rows.js';
import type {
  ActivitySums,
  LastPlayed,
  StatsFilter,
  RankedGenre,
  RankedItem,
  RankedTrack,
} from './reads/results.js';
import type { IdOfLine } from './columns/row-entry.js';
import { decodeSavedIndex, encodeBlock, SavedRecords } from './persistence/saved-index.js';
import { MARK_EVERY } from './columns/row-marks.js';
import type { Kind } from './sums/tally.js';
import * as rows from './reads/row-reads.js';
import { selectionOf, spanOf, type RowSpan, type Selection } from './reads/selection.js';
import {
  recentPage,
  topPage,
  topPages,
  topReaders,
  type TopLists,
  type TopReader,
} from './reads/top-lists.js';
import {
  EXPLICIT,
  FAR_INSERT_BUDGET,
  IN_PLACE_LIMIT,
  SKIP,
  type UserColumns,
} from './columns/user-columns.js';
import { Listener, type ListenerParts } from './listener.js';
import { UserTallies } from './sums/user-tallies.js';
import { nextTurn } from '../next-turn.js';

/** Saved rows added between pauses of a load in steps: each costs far more than a scanned row. */
const ROWS_PER_LOAD_STEP = 25_000;
/** Snapshots counted anew for the library between pauses of a load in steps. */
const SNAPSHOTS_PER_LOAD_STEP = 2_000;

/**
 * Every play log entry, indexed for the statistics reads (docs/API.md, Statistics): built from the
 * log at start and kept current by `add`. Strings are interned to small integers; what a track was
 * when played is a snapshot numbered once (snapshots.ts); each user's logs are time-sorted typed
 * columns of 16 bytes a log (user-columns.ts). A ranged read is a binary search, a scan of the range
 * into sums per snapshot, and a fold of those into tracks, albums, artists or genres (scans.ts).
 * All-time reads use sums and rankings kept current on every add.
 */
export class StatsIndex {
  private readonly tables = new IndexTables();
  /** Per user index, that user's logs and all kept of them (listener.ts). */
  private readonly listeners: Listener[] = [];
  /**
   * What reads (reads/selection.ts) and every listener share: the tables, the sums helper
   * (user-tallies.ts), how rows are placed and how long work is split (slices.ts).
   */
  private readonly parts: ListenerParts;
  /** How each kind's ranked items read (top-lists.ts). */
  private readonly readers = topReaders(this.tables);
  /** Names and newest logs for items gone from the library (latest-logs.ts). */
  private readonly latest = new LatestLogs(this.tables);
  private total = 0;
  /** What was added since the last save, in the saved form (saved-index.ts). */
  private unsaved = new SavedRecords();
  /** Reads a log id from the play log (see `readIdsFrom`). */
  private idOfLine: IdOfLine = () => {
    throw new Error('stats index: the play log is not open to read log ids from');
  };

  /**
   * The options exist for tests, to exercise the unsorted tail, slices of rows and row marks with
   * few entries, and to see what happens between slices.
   */
  constructor(
    options: {
      inPlaceLimit?: number;
      farInsertBudget?: number;
      rowsPerTurn?: number;
      nextTurn?: () => Promise<void>;
      markEvery?: number;
    } = {},
  ) {
    this.parts = {
      tables: this.tables,
      tallies: new UserTallies(this.tables, options.markEvery ?? MARK_EVERY),
      inPlaceLimit: options.inPlaceLimit ?? IN_PLACE_LIMIT,
      farInsertBudget: options.farInsertBudget ?? FAR_INSERT_BUDGET,
      slicing: { rowsPerTurn: options.rowsPerTurn ?? ROWS_PER_TURN, nextTurn: options.nextTurn ?? nextTurn },
    };
  }

  get size(): number {
    return this.total;
  }

  /**
   * What was added since the last call (or since `load`), to append to the saved index: the saved
   * index only grows, so a save writes just this (saved-play-index.ts).
   */
  takeUnsaved(): Uint8Array[] {
    const block = this.unsaved.block(savedTables(this.tables, this.tables.snapshots.numberedByLog));
    this.unsaved = new SavedRecords(tableCounts(this.tables));
    return encodeBlock(block);
  }

  /**
   * Where the ids of rows added with a line position are read: the play log, once it is open (its
   * lines are read before it is, as the index is built; no id is needed then).
   */
  readIdsFrom(log: { idAt: IdOfLine }): void {
    this.idOfLine = (line) => log.idAt(line);
  }

  /** The whole index as one saved block, its snapshots as texts (it loads without a log). */
  save(): Uint8Array {
    return savedWhole(this.tables, this.allRows());
  }

  /**
   * Adds saved blocks to this empty index. False when the bytes are not an index this code saved:
   * then the caller rebuilds it from the log (in a new index). An index saved by an older Melon
   * (format 1) loads too. `logSnapshots`: the play log's snapshots, for blocks that number
   * snapshots as the log does.
   */
  load(bytes: Uint8Array | Uint8Array[], logSnapshots: readonly PlaySnapshot[] = []): boolean {
    const steps = this.loadInSteps(bytes, logSnapshots);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `load` in steps: a generator that checks the saved blocks whole in its first step, then pauses
   * after every slice of rows and after settling each listener, so the load can run in the
   * background while the server answers (LoadingIndex). Nothing may read or add to the index until
   * it ends.
   */
  *loadInSteps(
    bytes: Uint8Array | Uint8Array[],
    logSnapshots: readonly PlaySnapshot[] = [],
    /** Called once the saved rows are in, before they are counted and settled: more rows may come. */
    afterRows?: () => void,
  ): Generator<void, boolean> {
    if (this.total > 0 || this.tables.snapshots.count > 0) return false;
    const saved = decodeSavedIndex(Array.isArray(bytes) ? bytes : [bytes]);
    if (!saved) return false;
    if (saved.kind === 'entries') {
      for (const entry of saved.entries) this.add(entry);
    } else {
      // Checked whole first: a load that fails must leave the index empty, for the rebuild.
      const defined = blocksHold(saved.blocks, logSnapshots);
      if (!defined) return false;
      const rowsOf = (userIdx: number) => this.listener(userIdx).rows;
      const rowsPerStep = Math.min(this.parts.slicing.rowsPerTurn, ROWS_PER_LOAD_STEP);
      for (const [i, block] of saved.blocks.entries())
        yield* addBlock(this.tables, rowsOf, this.place, block, defined[i]!, rowsPerStep);
    }
    this.unsaved = new SavedRecords(tableCounts(this.tables));
    afterRows?.();
    // Snapshots defined by the load count as the library says, as countAsInLibrary would make them,
    // before any sum of them is made.
    const { snapshots } = this.tables;
    if (snapshots.countsAsInLibrary && (yield* snapshots.recountInSteps(undefined, SNAPSHOTS_PER_LOAD_STEP)))
      this.forgetArtistSums();
    yield* this.settleInSteps();
    return true;
  }

  /**
   * After a bulk load (the log read at start): settles every listener (Listener.settle). Sums per
   * device and rankings are made ahead of their first read (StatsIndex.prepare): made here for every
   * user, they would hold memory nobody may read and lengthen every start.
   */
  settle(): void {
    for (const l of this.listeners) l?.settle();
  }

  /** `settle`, pausing after each listener. */
  *settleInSteps(): Generator<void, void> {
    for (const l of this.listeners) {
      if (!l) continue;
      yield* l.settleInSteps();
      yield;
    }
  }

  /**
   * Counts plays for the artists and album their tracks have in the library now (`current`;
   * SnapshotTable.recount), and again after each change of the library. When a play moves, the sums
   * made from what it counted for before are dropped, to be made again at their next read from the sums per snapshot
   * (which do not change): all-time sums and rankings, per-device sums, first plays per artist and
   * the names of artists gone from the library.
   */
  countAsInLibrary(current: TrackNow | undefined): void {
    if (this.tables.snapshots.recount(current)) this.forgetArtistSums();
  }

  private forgetArtistSums(): void {
    for (const l of this.listeners) l?.forgetArtistSums();
    this.latest.forgetNames();
  }

  /**
   * `logSnapshot`: the entry's snapshot number in the play log; `line`: where its line starts in the
   * log, so its id need not be kept in memory (without one, it is).
   */
  add(entry: PlayLogEntry, logSnapshot?: number, line?: number): void {
    const { users, snapshots, devices } = this.tables;
    const userIdx = users.intern(entry.userId);
    const s = snapshots.intern(entry, logSnapshot);
    const device = entry.device === null ? 0 : devices.intern(entry.device) + 1;
    const flags = (entry.type === 'skip' ? SKIP : 0) | (entry.explicitAt ? EXPLICIT : 0);
    const row = this.place(userIdx, entry.at, s, device, flags);
    const u = this.listeners[userIdx]!.rows;
    u.setId(row, entry.id, line);
    this.unsaved.addRow(u, row);
  }

  /**
   * Adds a log row to its listener (Listener.add, which counts it in all kept of them) and to the
   * latest logs; returns the row it filled.
   * A bound field rather than a method, so saved blocks (index-persistence.ts) call it directly.
   */
  private readonly place: PlaceRow = (userIdx, at, s, device, flags) => {
    const row = this.listener(userIdx).add(at, s, device, flags);
    this.latest.note(s, userIdx, at);
    this.total += 1;
    return row;
  };

  /** A user's listener, made at their first log. */
  private listener(userIdx: number): Listener {
    return (this.listeners[userIdx] ??= new Listener(userIdx, this.parts));
  }

  /** Every listener's columns, by user index (holes where a user has none). */
  private allRows(): UserColumns[] {
    return this.listeners.map((l) => l.rows);
  }

  /**
   * Room in a user's columns for `rows` more rows at once (an import about to add them): else they
   * grow by an eighth again and again, each old copy allocated until a full collection.
   */
  reserveRows(userId: string, rows: number): void {
    this.listenerOf(userId)?.reserve(rows);
  }

  /** Drops the room a reservation left unused when it is large (Listener.dropSpare). */
  dropSpareRows(userId: string): void {
    this.listenerOf(userId)?.dropSpare();
  }

  findRetry(userId: string, trackId: string, type: 'play' | 'skip', at: number): PlayLogEntry | undefined {
    const u = this.userColumns(userId);
    return u && rows.findRetry(this.parts, u, trackId, type, at, this.idOfLine);
  }

  /** Makes ahead, a slice of rows per turn, what a read of `f` would make at once (Listener.prepare). */
  async prepare(f: StatsFilter): Promise<void> {
    const sel = this.select(f);
    if (sel) await this.listenerOf(f.userId)?.prepare(sel);
  }

  /** Makes ahead what any read of a user without a device may make at once (Listener.prepareAll). */
  async prepareListener(userId: string): Promise<void> {
    const l = this.listenerOf(userId);
    if (!l) return;
    l.rows.ensureSorted();
    await l.prepareAll();
  }

  listeningTime(f: StatsFilter): { totalMs: number; plays: number } {
    const sel = this.select(f);
    return sel ? rows.listeningOf(this.parts, sel) : { totalMs: 0, plays: 0 };
  }

  topTracks(f: StatsFilter, offset: number, limit: number): RankedTrack[] {
    return this.top(f, 'tracks', offset, limit);
  }

  topAlbums(f: StatsFilter, offset: number, limit: number): RankedItem[] {
    return this.top(f, 'albums', offset, limit);
  }

  topArtists(f: StatsFilter, offset: number, limit: number): RankedItem[] {
    return this.top(f, 'artists', offset, limit);
  }

  topGenres(f: StatsFilter, offset: number, limit: number): RankedGenre[] {
    return this.top(f, 'genres', offset, limit);
  }

  /** The first `limit` of every top list of a filter, from one scan of its rows (top-lists.ts). */
  tops(f: StatsFilter, limit: number): TopLists {
    const sel = this.select(f);
    if (!sel) return { tracks: [], albums: [], artists: [], genres: [] };
    return topPages(this.parts, sel, limit, this.readers);
  }

  recentPlays(f: StatsFilter, offset: number, limit: number): PlayLogEntry[] {
    const sel = this.select(f);
    if (!sel || limit <= 0) return [];
    return rows.recentPlays(this.parts, sel, offset, limit, this.idOfLine);
  }

  recentAlbums(f: StatsFilter, offset: number, limit: number): LastPlayed[] {
    return this.recent(f, 'albums', this.tables.albums.values, offset, limit);
  }

  recentArtists(f: StatsFilter, offset: number, limit: number): LastPlayed[] {
    return this.recent(f, 'artists', this.tables.artists.values, offset, limit);
  }

  /**
   * Plays, skips and listening time per local day, Monday-based week or month, every step from the
   * one containing `from` to the one containing `to`. Stops as soon as there are more than
   * `maxSteps` steps: the caller refuses such a range, so counting it would be wasted work.
   */
  activity(f: StatsFilter & { from: number; to: number }, step: DateStep, maxSteps: number): ActivitySums[] {
    const steps = rows.activitySteps(f.from, f.to, step, maxSteps);
    if (steps.length > maxSteps) return steps;
    const sel = this.select(f);
    if (!sel || steps.length === 0) return steps;
    return rows.countActivity(this.parts, sel, steps);
  }

  /** A user's all-time plays and latest play per track or album with any play (reads/row-reads.ts). */
  playCounts(userId: string, kind: 'tracks' | 'albums') {
    return rows.playCountsOf(this.parts, this.columnsOf(userId), kind);
  }

  /** A user's plays and latest play of one track or album at a time (reads/row-reads.ts). */
  playCountLookup(userId: string, kind: 'tracks' | 'albums') {
    return rows.playCountLookupOf(this.parts, this.columnsOf(userId), kind);
  }

  /** A user's latest play of any track, looked up in the kept all-time sums (reads/row-reads.ts). */
  latestPlays(userId: string): (trackId: string) => number | undefined {
    return rows.latestPlaysOf(this.parts, this.columnsOf(userId));
  }

  /** A user's all-time counts kept for the household page's reads; undefined for a user without logs. */
  keptCounts(userId: string): KeptCounts | undefined {
    return this.columnsOf(userId)?.kept;
  }

  /** Every device name logged, by index (a row's device is its index + 1); grows as logs name new ones. */
  get deviceNames(): readonly string[] {
    return this.tables.devices.names.values;
  }

  /**
   * Visits the rows of `f` as spans of at most a slice of rows, a turn of the event loop between
   * (slices.ts): `start()` readies the sums `visit` adds to, again whenever the scan starts over.
   */
  async scanSpans(f: StatsFilter, start: () => void, visit: (span: RowSpan) => void): Promise<void> {
    const l = this.listenerOf(f.userId);
    return l ? l.scanSpans(() => this.rowSpan(f), start, visit) : start();
  }

  /**
   * The rows of a filter's range, for the small reads of play-patterns.ts (devices, heatmap, span),
   * which loop over the columns themselves: no object or call per row, so a read over a million rows
   * holds the event loop a few milliseconds, not a hundred. Undefined when the filter has no rows.
   */
  rowSpan(f: StatsFilter): RowSpan | undefined {
    const sel = this.select(f);
    return sel && spanOf(this.parts, sel);
  }

  latestEntryOfTrack(trackId: string): PlayLogEntry | undefined {
    return this.latest.entryOfTrack(this.allRows(), trackId, this.idOfLine);
  }

  snapshotName(kind: 'album' | 'artist', id: string): string | null {
    return this.latest.nameOf(kind, id);
  }

  /** A user's sorted rows and the snapshots they point at, for the history's row queries (log-rows.ts). */
  rowsOf(userId: string): LogRows | undefined {
    return this.listenerOf(userId)?.logRows(this.idOfLine);
  }

  /** What `f` selects, resolved once for a read (reads/selection.ts). */
  private select(f: StatsFilter): Selection | undefined {
    return selectionOf(this.tables, this.columnsOf(f.userId), f);
  }

  /** A user's columns, sorted for a read. */
  private userColumns(userId: string): UserColumns | undefined {
    const u = this.columnsOf(userId);
    u?.ensureSorted();
    return u;
  }

  /** A user's columns as they are (an unsorted tail left unmerged). */
  private columnsOf(userId: string): UserColumns | undefined {
    return this.listenerOf(userId)?.rows;
  }

  private listenerOf(userId: string): Listener | undefined {
    const idx = this.tables.users.get(userId);
    return idx === undefined ? undefined : this.listeners[idx];
  }

  /** A top list of a filter (top-lists.ts): its ranks [offset, offset + limit). */
  private top<K extends Kind>(f: StatsFilter, kind: K, offset: number, limit: number): TopLists[K] {
    const sel = this.select(f);
    if (!sel) return [];
    const read = this.readers[kind] as TopReader<TopLists[K][number]>;
    return topPage(this.parts, sel, kind, { offset, limit }, read) as TopLists[K];
  }

  private recent(
    f: StatsFilter,
    kind: 'albums' | 'artists',
    ids: string[],
    offset: number,
    limit: number,
  ): LastPlayed[] {
    const sel = this.select(f);
    return sel ? recentPage(this.parts, sel, kind, ids, { offset, limit }) : [];
  }
}
