import type { IndexTables } from '../tables/index-tables.js';
import { Ranking } from './ranking.js';
import { RowMarks } from '../columns/row-marks.js';
import { foldAll, foldAllInSteps, snapshotSums } from './scans.js';
import { scanInSlices, type Slicing } from '../columns/slices.js';
import { fitAllInSteps, newTallies, Tally, type Kind, type Tallies } from './tally.js';
import { finish } from '../../steps.js';
import { byPlays, byRecency, type Comparator } from './top-n.js';
import { noteHeard } from '../columns/first-heard.js';
import { SKIP, type UserColumns } from '../columns/user-columns.js';
import { countWeekHour } from '../reads/week-hours.js';

/** How many devices' all-time sums a user keeps (the ones read last). */
export const DEVICE_SUMS_KEPT = 4;

/** The lists kept ranked for all-time reads (ranking.ts). */
export type RankedList = Kind | 'recentAlbums' | 'recentArtists';
const RANKED_LISTS: readonly RankedList[] = [
  'tracks',
  'albums',
  'artists',
  'genres',
  'recentAlbums',
  'recentArtists',
];

/** The rankings a user's recent list of `kind` pages (the recent tracks are read from the rows). */
export function recentRanks(kind: 'tracks' | 'albums' | 'artists'): readonly RankedList[] {
  return kind === 'albums' ? ['recentAlbums'] : kind === 'artists' ? ['recentArtists'] : [];
}

/**
 * A user's sums and rankings: all-time sums per kind and per device, kept current by `count` on every
 * add, rankings of them made at their first read, and sums per snapshot of a range made for one read.
 */
export class UserTallies {
  /** Reused for ranged reads; reads are synchronous, so one set is enough. */
  readonly scratch = newTallies();
  private readonly scratchSnapshots = new Tally();

  /** `markEvery`: rows between a heavy listener's marks (row-marks.ts; tests use few). */
  constructor(
    private readonly tables: IndexTables,
    private readonly markEvery: number,
  ) {}

  /** A user's all-time sums per kind: folded from the sums per snapshot at the first read, then kept current. */
  all(u: UserColumns): Tallies {
    if (!u.all) finish(this.allInSteps(u));
    return u.all!;
  }

  /**
   * `all` made in steps, a kind at a time (a listener settling in a load in the background); not
   * kept unless `unchanged` still says so at the end (no row was added meanwhile).
   */
  *allInSteps(u: UserColumns, unchanged: () => boolean = () => true): Generator<void, void> {
    if (u.all) return;
    const all = newTallies(true);
    yield* foldAllInSteps(all, u.bySnapshot, this.tables.snapshots);
    yield* fitAllInSteps(all);
    if (unchanged()) u.all ??= all;
  }

  /**
   * All-time sums of one of a user's devices: one scan the first time, then kept current by `add`.
   * Each holds sums for every item of the library, so only the few read last are kept.
   */
  device(u: UserColumns, device: number): Tallies {
    let t = u.byDevice.get(device);
    if (t) {
      // Map order is insertion order: moved to the end, it is the most recently read.
      u.byDevice.delete(device);
      u.byDevice.set(device, t);
      return t;
    }
    t = this.withRangeSums(u, 0, u.n, device, (sums) => this.folded(sums));
    this.keepDevice(u, device, t);
    return t;
  }

  /**
   * Makes a device's all-time sums (`device`) ahead of a read, a slice of rows per turn of the event
   * loop: the scan covers every log of the user, and a heavy listener's made at once would hold the
   * loop while other requests wait (slices.ts).
   */
  async prepareDevice(u: UserColumns, device: number, slicing: Slicing): Promise<void> {
    if (u.byDevice.has(device)) return;
    // Made by `start`, afresh at each try.
    let sums!: Tally;
    let accept!: Uint8Array;
    await scanInSlices(
      u,
      () => [0, u.n],
      () => {
        // Afresh at each try: logs that landed meanwhile may have added snapshots and devices.
        sums = new Tally(false);
        sums.ensure(this.tables.snapshots.count);
        accept = this.acceptDevice(device);
      },
      (lo, hi) => snapshotSums(sums, u, lo, hi, accept),
      slicing,
    );
    if (!u.byDevice.has(device)) this.keepDevice(u, device, this.folded(sums));
  }

  /**
   * Makes or extends a heavy listener's row marks ahead of a ranged read (row-marks.ts), a mark per
   * turn of the event loop. Marks dropped meanwhile (an unsorted tail merged) are made again.
   */
  async prepareMarks(u: UserColumns, { nextTurn }: Slicing): Promise<void> {
    while (RowMarks.worthFor(u.n, this.markEvery)) {
      u.marks ??= new RowMarks(this.markEvery);
      if (!u.marks.extendOne(u, this.tables.snapshots.count)) return;
      await nextTurn();
    }
  }

  /**
   * Makes a user's all-time rankings (`lists` of them) ahead of an all-time read, each sorted a step
   * per turn of the event loop (Ranking.prepare): made at the read, a heavy listener's would hold
   * the loop.
   */
  async prepareRankings(u: UserColumns, { nextTurn }: Slicing, lists = RANKED_LISTS): Promise<void> {
    for (const list of lists) await this.ranking(u, list).prepare(() => u.n, nextTurn);
  }

  private folded(sums: Tally): Tallies {
    const tallies = newTallies();
    foldAll(tallies, sums, this.tables.snapshots);
    return tallies;
  }

  private keepDevice(u: UserColumns, device: number, t: Tallies): void {
    if (u.byDevice.size >= DEVICE_SUMS_KEPT) u.byDevice.delete(u.byDevice.keys().next().value!);
    u.byDevice.set(device, t);
  }

  ranking(u: UserColumns, list: RankedList): Ranking {
    let ranking = u.rankings.get(list);
    if (!ranking) {
      const all = this.all(u);
      const kind: Kind = list === 'recentAlbums' ? 'albums' : list === 'recentArtists' ? 'artists' : list;
      const tally = all[kind];
      const ids = this.tables.idsOf(kind);
      const order: () => Comparator = list === kind ? () => byPlays(tally, ids) : () => byRecency(tally, ids);
      ranking = new Ranking(tally, order);
      u.rankings.set(list, ranking);
    }
    return ranking;
  }

  /**
   * Whether only the sums per snapshot and the totals are kept of `u` (a listener still being read
   * from the log at start): then `addedRun` counts new rows as `added` would.
   */
  onlySnapshotSums(u: UserColumns): boolean {
    return (
      !u.all && !u.marks && u.byDevice.size === 0 && !u.firstHeard && !u.kept.weekHours && !u.kept.devices
    );
  }

  /** `added` for the rows [from, to) of `u`, when `onlySnapshotSums(u)`, in one loop. */
  addedRun(u: UserColumns, from: number, to: number): void {
    const duration = this.tables.snapshots.duration;
    const { at, snap, flags, bySnapshot } = u;
    for (let row = from; row < to; row += 1) {
      const s = snap[row]!;
      const play = (flags[row]! & SKIP) === 0;
      bySnapshot.bump(s, play, duration[s]!, at[row]!);
      if (play) {
        u.plays += 1;
        u.listeningMs += duration[s]!;
      }
    }
  }

  /**
   * Counts a listener's new row in all that is kept of them: the sums per snapshot, the all-time
   * totals and first plays per artist, the household page's counts, the row marks, and the all-time
   * and per-device sums with their rankings.
   */
  added(u: UserColumns, row: number, s: number, device: number, flags: number, at: number): void {
    const play = (flags & SKIP) === 0;
    const table = this.tables.snapshots;
    u.bySnapshot.bump(s, play, table.duration[s]!, at);
    if (play) {
      u.plays += 1;
      u.listeningMs += table.duration[s]!;
      noteHeard(u, table.artists, s, at);
      if (u.kept.weekHours) countWeekHour(u.kept.weekHours, at);
    }
    u.kept.devices?.count(device, play);
    u.marks?.inserted(row, s, !play);
    if (u.all) this.count(u.all, s, play, at, u);
    if (device > 0 && u.byDevice.size > 0) {
      const perDevice = u.byDevice.get(this.tables.devices.keyOf[device - 1]!);
      if (perDevice) this.count(perDevice, s, play, at);
    }
  }

  /** Counts a log of snapshot `s` in `t`, moving it up the rankings of `u` when given. */
  count(t: Tallies, s: number, play: boolean, at: number, u?: UserColumns): void {
    const table = this.tables.snapshots;
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

  /** Sums per snapshot of rows [lo, hi) (of one device key, unless undefined), handed to `read`. */
  withRangeSums<T>(
    u: UserColumns,
    lo: number,
    hi: number,
    device: number | undefined,
    read: (sums: Tally) => T,
  ): T {
    const sums = this.scratchSnapshots;
    try {
      sums.ensure(this.tables.snapshots.count);
      snapshotSums(sums, u, lo, hi, device === undefined ? undefined : this.acceptDevice(device));
      return read(sums);
    } finally {
      sums.reset();
    }
  }

  /** Per device name index + 1, 1 when its key is `key`. */
  acceptDevice(key: number): Uint8Array {
    const keyOf = this.tables.devices.keyOf;
    const accept = new Uint8Array(keyOf.length + 1);
    for (let i = 0; i < keyOf.length; i += 1) if (keyOf[i] === key) accept[i + 1] = 1;
    return accept;
  }
}
