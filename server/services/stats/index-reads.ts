import type { DateStep } from '../../domain/dates.js';
import type { PlayLogEntry } from '../../domain/play.js';
import { ROWS_PER_TURN } from './columns/columns.js';
import type { KeptCounts } from './columns/kept-counts.js';
import type { LogRows } from './columns/log-rows.js';
import { MARK_EVERY } from './columns/row-marks.js';
import type { IdOfLine } from './columns/row-entry.js';
import { FAR_INSERT_BUDGET, IN_PLACE_LIMIT, type UserColumns } from './columns/user-columns.js';
import type { Listener } from './listener.js';
import { type ListenerParts } from './listener.js';
import type {
  ActivitySums,
  LastPlayed,
  StatsFilter,
  RankedGenre,
  RankedItem,
  RankedTrack,
} from './reads/results.js';
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
import type { Kind } from './sums/tally.js';
import { UserTallies, type RankedList } from './sums/user-tallies.js';
import { IndexTables } from './tables/index-tables.js';
import { LatestLogs, type LoggedSnapshot } from './tables/latest-logs.js';
import { nextTurn } from '../next-turn.js';

/**
 * The read side of the statistics index (StatsIndex, which adds logs and loads and saves them): the
 * state both share, and every read. A read resolves what its filter selects once (reads/selection.ts)
 * and answers from the user's listener (listener.ts): its sorted columns and all kept of them.
 */
export abstract class IndexReads {
  protected tables = new IndexTables();
  /** Per user index, that user's logs and all kept of them (listener.ts). */
  protected readonly listeners: Listener[] = [];
  /**
   * What reads (reads/selection.ts) and every listener share: the tables, the sums helper
   * (user-tallies.ts), how rows are placed and how long work is split (slices.ts).
   */
  protected parts: ListenerParts;
  /** How each kind's ranked items read (top-lists.ts). */
  protected readers = topReaders(this.tables);
  /** Names and newest logs for items gone from the library (latest-logs.ts). */
  protected latest = new LatestLogs(this.tables);
  /** Reads a log id from the play log (see `readIdsFrom`). */
  protected idOfLine: IdOfLine = () => {
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
    this.markEvery = options.markEvery ?? MARK_EVERY;
    this.parts = {
      tables: this.tables,
      tallies: new UserTallies(this.tables, this.markEvery),
      inPlaceLimit: options.inPlaceLimit ?? IN_PLACE_LIMIT,
      farInsertBudget: options.farInsertBudget ?? FAR_INSERT_BUDGET,
      slicing: { rowsPerTurn: options.rowsPerTurn ?? ROWS_PER_TURN, nextTurn: options.nextTurn ?? nextTurn },
    };
  }

  private readonly markEvery: number;

  /** Drops all the index holds, as new: a saved index that failed part way through its load. */
  protected clear(): void {
    this.tables = new IndexTables();
    this.listeners.length = 0;
    this.parts = {
      ...this.parts,
      tables: this.tables,
      tallies: new UserTallies(this.tables, this.markEvery),
    };
    this.readers = topReaders(this.tables);
    this.latest = new LatestLogs(this.tables);
  }

  findRetry(userId: string, trackId: string, type: 'play' | 'skip', at: number): PlayLogEntry | undefined {
    const u = this.userColumns(userId);
    return u && rows.findRetry(this.parts, u, trackId, type, at, this.idOfLine);
  }

  /** Makes ahead, a slice of rows per turn, what a read of `f` would make at once (Listener.prepare). */
  async prepare(f: StatsFilter, ranks?: readonly RankedList[]): Promise<void> {
    const sel = this.select(f);
    if (sel) await this.listenerOf(f.userId)?.prepare(sel, ranks);
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
   * (slices.ts): `start()` readies the sums `visit` adds to, again whenever the scan starts over;
   * `fits()`, whether they can take logs added meanwhile (else it starts over for them).
   */
  async scanSpans(
    f: StatsFilter,
    start: () => void,
    visit: (span: RowSpan) => void,
    fits?: () => boolean,
  ): Promise<void> {
    const l = this.listenerOf(f.userId);
    return l ? l.scanSpans(() => this.rowSpan(f), start, visit, fits) : start();
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

  /** The snapshot of a track's newest log, as logged. */
  latestSnapshotOfTrack(trackId: string): LoggedSnapshot | undefined {
    return this.latest.snapshotOfTrack(this.allRows(), trackId);
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

  protected listenerOf(userId: string): Listener | undefined {
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

  /** Every listener's columns, by user index (holes where a user has none). */
  protected allRows(): UserColumns[] {
    return this.listeners.map((l) => l.rows);
  }
}
