import type { LoggedNames, LoggedRows, PlayLogEntry } from '../../domain/play.js';
import type { ReadWholeLog } from './persistence/index-saving.js';
import type { StatsIndex } from './stats-index.js';
import type { SnapshotTextList } from '../../store/snapshot-texts.js';
import { inBackground, runFor, STEP_MS } from '../steps.js';
import { idleTurn as whenIdle } from '../next-turn.js';

/**
 * The statistics index as the store fills it at start, with the saved index loaded in the
 * background: the store opens (and the server listens) once the saved index's framing is read, and
 * it is then checked whole and its rows added in steps (StatsIndex.loadInSteps), as many a turn of
 * the event loop as fit its budget, while the server answers sign-ins. Logs the store hands over
 * meanwhile (the log's lines after the saved index, a log appended while loading) wait, in order,
 * and are added right after it. A saved index found not to fit is dropped, and the index is rebuilt
 * from the whole log (`rebuild`), still in the background. Without a usable saved index the store
 * reads the whole log into the index at once, as it always did.
 *
 * Nothing may read the index before `ready`: the HTTP layer holds such requests (http/starting.ts).
 */
export class LoadingIndex {
  private steps: Generator<void, boolean> | null = null;
  /** Not `ready`: loading saved parts, or waiting for (or in) a rebuild after they did not fit. */
  private pending = false;
  private unusable = false;
  /** What the store handed over meanwhile, in order, to add once the load is done. */
  private waiting: Array<(index: StatsIndex) => void> = [];
  private failure: Error | undefined;
  /** Called once the saved parts are in (`whenLoaded`). */
  private loaded: Array<() => void> = [];

  constructor(
    private readonly index: StatsIndex,
    /** The wait between steps: a later turn of the event loop. */
    private readonly nextTurn: () => Promise<void>,
    /**
     * How long one turn of the event loop may run load steps before requests get their turn (0: one
     * step a turn): a turn and a young-generation collection in it stay within a request's patience.
     */
    private readonly budgetMs = STEP_MS,
    private readonly now: () => number = () => performance.now(),
    /** The wait between the steps of what the load leaves for after it. */
    private readonly idleTurn: () => Promise<void> = whenIdle,
  ) {}

  /** True once the index holds every log the store has handed over. */
  get ready(): boolean {
    return !this.pending;
  }

  /**
   * Reads the saved parts' framing (the load's first step) and leaves the rest for `finish`; false
   * when they are no saved index, the index left empty for the store to rebuild from the log.
   */
  load(parts: Uint8Array[], logSnapshots: SnapshotTextList | readonly string[]): boolean {
    // The log's lines after the saved index come before the load's counting and settling.
    const steps = this.index.loadInSteps(parts, logSnapshots, () => this.addWaiting(), true);
    const first = steps.next();
    if (first.done) return first.value;
    this.steps = steps;
    this.pending = true;
    return true;
  }

  /** As StatsIndex.add: `snapshot` and `line` are the log's, when the log hands the entry over. */
  add(entry: PlayLogEntry, snapshot?: number, line?: number): void {
    if (this.pending) this.waiting.push((index) => index.add(entry, snapshot, line));
    else this.index.add(entry, snapshot, line);
  }

  /** As StatsIndex.addRows. */
  addRows(rows: LoggedRows, names: LoggedNames): void {
    if (!this.pending) {
      this.index.addRows(rows, names);
      return;
    }
    // The store fills its rows again once this returns, and lets its snapshots go once the log is
    // read: they wait as copies.
    const { count } = rows;
    const copy = {
      count,
      toCome: rows.toCome,
      at: rows.at.slice(0, count),
      user: rows.user.slice(0, count),
      snapshot: rows.snapshot.slice(0, count),
      device: rows.device.slice(0, count),
      kind: rows.kind.slice(0, count),
      line: rows.line.slice(0, count),
    };
    const snapshots = new Map(Array.from(new Set(copy.snapshot), (n) => [n, names.snapshot(n)]));
    const named = {
      users: [...names.users],
      devices: [...names.devices],
      snapshot: (n: number) => snapshots.get(n),
    };
    this.waiting.push((index) => index.addRows(copy, named));
  }

  readIdsFrom(log: { idAt(line: number): string }): void {
    this.index.readIdsFrom(log);
  }

  /**
   * A save takes what the index holds with the log's position: the load is finished first, at once.
   * Refused while the index must be rebuilt: it holds nothing worth saving yet.
   */
  takeUnsaved(): Uint8Array[] {
    this.finishNow();
    if (this.pending) throw new Error('the play index is being rebuilt from the log');
    return this.index.takeUnsaved();
  }

  /** The log is read: a loaded index settles at the end of its load instead. */
  settle(): void {
    if (!this.pending) this.index.settle();
  }

  /**
   * Runs the rest of the load, steps for up to `budgetMs` a turn of the event loop; true once
   * `ready`, false when the saved parts did not fit (the index is empty: `rebuild` it).
   */
  async finish(): Promise<boolean> {
    while (this.steps) {
      await this.nextTurn();
      const until = this.now() + this.budgetMs;
      // The steps' own loops end early once the turn's time is up (steps.ts).
      runFor(until, this.now, () => {
        do this.step();
        while (this.steps && this.now() < until);
      });
    }
    return !this.unusable;
  }

  /** Runs the rest of the load now (a save or a stop during the start). */
  finishNow(): void {
    while (this.steps) this.step();
  }

  /**
   * After saved parts that did not fit: reads the whole log into the empty index, then what was
   * appended meanwhile. The logs handed over so far are all in the log again: they are dropped.
   */
  async rebuild(readLog: ReadWholeLog): Promise<void> {
    if (!this.unusable) return;
    // Taken together with the log's end, so nothing is added twice or missed.
    this.waiting = [];
    await readLog(
      (entry, snapshot, line) => this.index.add(entry, snapshot, line),
      (rows, names) => this.index.addRows(rows, names),
    );
    this.index.settle();
    this.unusable = false;
    this.pending = false;
    this.addWaiting();
  }

  private step(): void {
    if (this.failure !== undefined) throw this.failure;
    if (!this.steps) return;
    let loaded: boolean;
    try {
      const step = this.steps.next();
      if (!step.done) return;
      loaded = step.value;
    } catch (error) {
      // Half loaded: never `ready`, never saved over the file it came from.
      this.failure = error instanceof Error ? error : new Error(String(error));
      throw this.failure;
    }
    this.steps = null;
    if (!loaded) {
      this.unusable = true;
      return;
    }
    this.pending = false;
    this.addWaiting();
    // Each listener settles after the load in idle turns, or at its first read in the read's, whichever
    // comes first: the first read waits for its own listener only.
    this.index.settleLeft(this.idleTurn).catch(() => undefined);
    // The saved strings' look-ups, which the load left for after it (else made at the first look-up).
    // A string saved twice is damage no check before could tell cheaply: told, for the saved index
    // to be dropped (answers may count a track's plays under two entries until the next start).
    inBackground(this.index.indexInSteps(), () => true, this.idleTurn, this.now)
      .then((distinct) => {
        if (distinct === false) this.damaged();
      })
      .catch(() => undefined);
    const thens = this.loaded;
    this.loaded = [];
    for (const then of thens) then();
  }

  /** Calls `then` when the saved parts turn out damaged after the load (a string saved twice). */
  whenDamaged(then: () => void): void {
    this.damaged = then;
  }

  private damaged: () => void = () => undefined;

  /** Calls `then` once the saved parts `load` took are in the index (at once if they are); never if they did not fit. */
  whenLoaded(then: () => void): void {
    if (this.steps) this.loaded.push(then);
    else if (!this.pending) then();
  }

  /** As StatsIndex.logSnapshotText, once loaded. */
  logSnapshotText(n: number): string | undefined {
    return this.pending ? undefined : this.index.logSnapshotText(n);
  }

  private addWaiting(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const add of waiting) add(this.index);
  }
}
