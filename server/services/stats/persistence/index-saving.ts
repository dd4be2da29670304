import type { LoggedNames, LoggedRows, PlayLogEntry } from '../../../domain/play.js';
import type { Logger } from '../../../logger.js';
import { openStore, type Store } from '../../../store/open-store.js';
import { sameMark } from '../../../store/library-file.js';
import type { LogPosition, PlayLog } from '../../../store/play-log.js';
import { parseSavedCounting, samePosition, savedCountingJson, type SavedCounting } from './saved-counting.js';
import type { SavedPlayIndexFile, UnusableSavedIndex } from '../../../store/saved-play-index.js';
import type { SnapshotTextList, SnapshotTexts } from '../../../store/snapshot-texts.js';
import { inBackground } from '../../steps.js';
import { idleTurn } from '../../next-turn.js';

/** The in-memory index the play log is read into (the stats index), as its saving sees it. */
export interface PlayIndex {
  /**
   * Receives every play-log entry already on disk, in file order, while the store opens, then each
   * appended one; `snapshot` is the entry's snapshot number in the log, `line` where its line
   * starts (PlayLogOptions.onEntry).
   */
  add(entry: PlayLogEntry, snapshot: number, line: number): void;
  /** The entries already on disk when the store opens, in batches (PlayLogOptions.onRows), instead of `add`. */
  addRows(rows: LoggedRows, names: LoggedNames): void;
  /** The log is open: read log ids from it from now on (PlayLog.idAt). */
  readIdsFrom(log: { idAt(line: number): string }): void;
  /** Bytes for what was added since the last call (or since `load`): the saved index only grows. */
  takeUnsaved(): Uint8Array[];
  /**
   * Loads saved parts, in order, into this empty index, with the snapshot texts of the log up to
   * where they were saved (as the saved index gave them back, not yet read); false when they are
   * not usable (the index is then rebuilt from the log).
   */
  load(parts: Uint8Array[], logSnapshots: SnapshotTextList): boolean;
  /** The log is read: a moment to drop spare room. */
  settle(): void;
  /** Calls `then` once saved parts `load` took are in (at once if they are); never if they did not fit. */
  whenLoaded(then: () => void): void;
  /** The canonical text of the log's snapshot `n`, made from what the index holds; undefined if it cannot. */
  logSnapshotText(n: number): string | undefined;
  /**
   * Reads the whole log into the index again, after saved parts `load` took turned out not to fit
   * (an index that checks them in the background; the index is empty then).
   */
  rebuild(readLog: ReadWholeLog): Promise<void>;
}

/**
 * Hands each entry of the play log to `onEntry`, in order, with its snapshot number and line when
 * the log gives them (PlayLog.replay); or, when the log can and `onRows` is given, all of them to
 * `onRows` as batches of rows.
 */
export type ReadWholeLog = (
  onEntry: (entry: PlayLogEntry, snapshot?: number, line?: number) => void,
  onRows?: (rows: LoggedRows, names: LoggedNames) => void,
) => Promise<void>;

/** The data folder opened with the play log read into an index, and that index's saving. */
export interface IndexedStore {
  readonly store: Store;
  /** Appends what the index gained since the last save to plays.index (done at close too). */
  readonly saveIndex: () => Promise<void>;
  /** Saves the index, then closes the store: the folder is let go only once the index is saved. */
  readonly close: () => Promise<void>;
  /**
   * When the saved index the index took turns out not to fit the log (checked after the store
   * opened): drops it, rebuilds the index from the whole log and saves it afresh.
   */
  readonly rebuildIndex: () => Promise<void>;
  /**
   * When the saved index the index took turns out damaged after it was used: removed, and nothing
   * more saved, so the next start rebuilds the index from the log.
   */
  readonly dropSavedIndex: () => Promise<void>;
  /**
   * The counting saved with the index (saved-counting.ts) when it fits this start: made at the
   * saved index's position, with no log line after it, for the library.json on disk.
   */
  readonly savedCounting: () => Promise<SavedCounting | undefined>;
  /** How the counting is made at close, once the index is saved. */
  countWith(make: MakeCounting): void;
}

/**
 * The counting of the index as saved at `at` (saved-counting.ts); 'keep': the last one is left (it
 * fits a start only where nothing changed since it was made); 'drop': none could be made, and the
 * last one is removed, as it no longer fits.
 */
export type MakeCounting = (at: {
  position: LogPosition;
  snapshots: number;
}) => Promise<SavedCounting | 'keep' | 'drop'>;

/**
 * After reading this many log lines at start, save the index at once instead of only at shutdown,
 * so a crash does not make the next start read them all again.
 */
const SAVE_INDEX_AFTER_REPLAYING = 10_000;

/**
 * While serving, save the index once this many logs were added since the last save (an import
 * adds a million): what awaits a save is held in memory (28 bytes a log), and a crash would make
 * the next start read it all from the log again.
 */
const SAVE_INDEX_EVERY = 20_000;

/** Where the saved index stands, so the next save appends to it; undefined: write it afresh. */
interface SavedIndexState {
  bytes: number;
  /** Where the log stood at its last segment. */
  position: LogPosition;
  /** How many of the log's snapshots it holds. */
  logSnapshots: number;
}

/**
 * Opens the data folder and reads its play log into `index`: the saved index first, when it still
 * fits the log, then only the log lines after it. Every entry appended later reaches the index the
 * moment it is durable, and the index is saved as it grows (IndexSaving).
 */
export async function openStoreWithIndex(
  dataDir: string,
  { logger, index, libraryLater }: { logger: Logger; index: PlayIndex; libraryLater?: boolean },
): Promise<IndexedStore> {
  let saved: SavedIndexState | undefined;
  let added: () => void = () => undefined;
  const store = await openStore(dataDir, {
    logger,
    libraryLater,
    readPlays: async (file) => {
      const read = await file.read();
      const copy = typeof read === 'string' ? undefined : read;
      // Taken before the log is read on: reading defines more snapshots in the same table.
      const logSnapshots = copy?.logSnapshots ?? 0;
      // Those the file holds: the log defines more as it is read, and the index may check the saved
      // parts after that (LoadingIndex).
      const texts = copy?.from.snapshots.texts;
      const usable =
        copy && texts && index.load(copy.data, savedTextList(texts, logSnapshots, copy.checkDataInSteps));
      if (read !== undefined && !usable) logUnusable(logger, typeof read === 'string' ? read : 'damaged');
      if (usable) saved = { bytes: copy.bytes, position: copy.from.position, logSnapshots };
      return {
        onEntry: (entry, snapshot, line) => {
          index.add(entry, snapshot, line);
          added();
        },
        onRows: (rows, names) => index.addRows(rows, names),
        from: usable ? copy.from : undefined,
      };
    },
  });
  index.settle();
  index.readIdsFrom(store.plays);
  if (saved) {
    // The log's snapshots the saved index holds are never written again: once the index has them,
    // it makes their texts, for the log to find a snapshot by (at a collector's size, tens of MB).
    const { logSnapshots } = saved;
    // Their bytes are made ready first, in steps when nothing else waits (the load itself needs
    // none of them, nor the statistics' first answers).
    const texts = store.plays.snapshots.texts;
    index.whenLoaded(() => {
      inBackground(texts.prepareInSteps(), () => true, idleTurn)
        .then(() => store.plays.snapshots.forgetSaved(logSnapshots, (n) => index.logSnapshotText(n)))
        .catch((error: unknown) =>
          logger.warn('could not let go of saved snapshot texts', { error: String(error) }),
        );
    });
  }
  // What the start loaded: the counting saved with it fits only that.
  const loadedFrom = store.plays.replayed === 0 ? saved : undefined;
  const saving = new IndexSaving(store.savedPlayIndex, store.plays, index, logger, saved);
  let makeCounting: MakeCounting | undefined;
  // Nothing to save leaves the last one: it fits the next start only if nothing changed since.
  const saveCounting = async () => {
    const at = saving.savedAt();
    try {
      const counting = at && (await makeCounting?.(at));
      if (counting === 'drop') await store.savedPlayIndex.removeCounting();
      else if (counting && counting !== 'keep')
        await store.savedPlayIndex.writeCounting(savedCountingJson(counting));
    } catch (error) {
      logger.warn('could not save the play counting', { error: String(error) });
    }
  };

  if (store.plays.replayed > SAVE_INDEX_AFTER_REPLAYING) saving.saveInBackground();
  // Only appends count towards the next save: the lines read at start are covered above.
  added = () => saving.added();
  return {
    store,
    saveIndex: () => saving.save(),
    close: async () => {
      await store.flush();
      await saving.close();
      await saveCounting();
      await store.close();
    },
    savedCounting: async () => {
      if (!loadedFrom) return undefined;
      const counting = parseSavedCounting(await store.savedPlayIndex.readCounting());
      if (!counting || counting.snapshots !== loadedFrom.logSnapshots) return undefined;
      if (!samePosition(counting.position, loadedFrom.position)) return undefined;
      const mark = await store.library.mark();
      return mark && sameMark(counting, mark) ? counting : undefined;
    },
    countWith: (make) => {
      makeCounting = make;
    },
    dropSavedIndex: () => saving.drop(),
    rebuildIndex: async () => {
      // The load's checks failed: the copy's bytes are not what was saved, or not saved right.
      logUnusable(logger, 'damaged');
      saving.restart();
      await index.rebuild((onEntry, onRows) => store.plays.replay(onEntry, onRows));
      saving.saveInBackground();
    },
  };
}

/** Says why the saved index is rebuilt: an upgrade's once-only rebuild is no damage. */
function logUnusable(logger: Logger, why: UnusableSavedIndex): void {
  if (why === 'older')
    logger.info('plays.index was saved by an older Melon; rebuilding it once from the play log');
  else if (why === 'damaged') logger.warn('the saved play index is damaged; rebuilding it from the play log');
  else logger.warn('the saved play index does not fit the play log; rebuilding it');
}

/**
 * The log's snapshot texts a saved index holds, as the index checks and reads them; checking them
 * checks the saved data's checksums first, before any saved block is added. Made apart from
 * `readPlays`: a closure there would keep the whole file's bytes as long as the log's listeners.
 */
function savedTextList(
  texts: SnapshotTexts,
  count: number,
  checkData: () => Generator<void, boolean>,
): SnapshotTextList {
  return {
    count,
    text: (n) => texts.text(n),
    slice: (from, to) => texts.slice(from, to),
    prepareInSteps: () => texts.prepareInSteps(),
    checkInSteps: function* () {
      return (yield* checkData()) && (yield* texts.checkInSteps());
    },
  };
}

/** When and how the index is appended to plays.index; one save at a time. */
class IndexSaving {
  private addedSinceSave = 0;
  private broken = false;
  private closed = false;
  private saving = Promise.resolve();

  constructor(
    private readonly file: SavedPlayIndexFile,
    private readonly plays: PlayLog,
    private readonly index: PlayIndex,
    private readonly logger: Logger,
    private saved: SavedIndexState | undefined,
  ) {}

  added(): void {
    this.addedSinceSave += 1;
    if (this.addedSinceSave >= SAVE_INDEX_EVERY) this.saveInBackground();
  }

  /** Where the saved index ends and how many snapshots it holds; undefined when none is saved. */
  savedAt(): { position: LogPosition; snapshots: number } | undefined {
    if (this.broken || !this.saved) return undefined;
    return { position: this.saved.position, snapshots: this.saved.logSnapshots };
  }

  /** The index holds damage: no copy of it is kept, and the next start rebuilds it from the log. */
  async drop(): Promise<void> {
    this.broken = true;
    await this.saving.catch(() => undefined);
    await this.file.remove();
    await this.file.removeCounting();
  }

  /** The index is rebuilt from the whole log: the next save writes the file afresh. */
  restart(): void {
    this.broken = false;
    this.saved = undefined;
  }

  /** In the background: serving need not wait for it. */
  saveInBackground(): void {
    if (this.closed) return;
    this.addedSinceSave = 0;
    this.save().catch((error: unknown) =>
      this.logger.warn('could not save the play index', { error: String(error) }),
    );
  }

  /**
   * Appends what the index gained since the last save (the whole index the first time), after any
   * save on its way. The index's part is taken synchronously with the log position, so the two
   * match. Writing is asynchronous (no stall of the event loop); a save that fails leaves no usable
   * file.
   */
  save(): Promise<void> {
    const run = () => this.saveNow();
    this.saving = this.saving.then(run, run);
    return this.saving;
  }

  /** The last save, once every append is durable; no save starts after it. */
  async close(): Promise<void> {
    this.closed = true;
    try {
      await this.save();
    } catch (error) {
      // Only a cache: the next start rebuilds the index from the log.
      this.logger.warn('could not save the play index', { error: String(error) });
    }
  }

  private async saveNow(): Promise<void> {
    if (this.broken) return;
    const { plays } = this;
    if (plays.entriesMissed) {
      // The index lacks an entry the log has: do not keep a copy of it, rebuild at the next start.
      this.broken = true;
      await this.file.remove();
      return;
    }
    const logSnapshots = plays.durableSnapshots;
    const from = this.saved?.logSnapshots ?? 0;
    const segment = {
      position: plays.position(),
      logSnapshots: { count: logSnapshots - from, bytes: plays.snapshots.texts.bytes(from, logSnapshots) },
      data: this.index.takeUnsaved(),
    };
    try {
      const bytes = this.saved
        ? await this.file.append(this.saved.bytes, segment)
        : await this.file.write(segment);
      this.saved = { bytes, position: segment.position, logSnapshots };
    } catch (error) {
      // What was taken is not in the file: later segments would not follow on. Rebuild next start.
      this.broken = true;
      await this.file.remove().catch(() => undefined);
      throw error;
    }
  }
}
