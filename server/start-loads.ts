import { performance } from 'node:perf_hooks';
import type { Logger } from './logger.js';
import type { Services } from './services/create-services.js';
import type { LoadingIndex } from './services/stats/loading-index.js';
import type { IndexedStore } from './services/stats/persistence/index-saving.js';
import {
  makeSavedCounting,
  samePosition,
  savedNames,
  type SavedCounting,
} from './services/stats/persistence/saved-counting.js';
import type { StatsIndex } from './services/stats/stats-index.js';
import { libraryNames } from './services/stats/stats-names.js';
import { sameMark, type LibraryMark } from './store/library-file.js';
import type { Store } from './store/open-store.js';

/** What a server loads once it listens: the library (library.json) and the rest of the play index. */
export interface StartLoads {
  /** Starts the loads (once listening). */
  begin(): void;
  /** Resolves once the library and every play are in; never when a load failed. */
  readonly loaded: Promise<void>;
  /** Resolves when a load failed (the log says why). */
  readonly failure: Promise<void>;
  /** Whether the statistics may be read: the plays are in, counted as the library on disk says. */
  readonly statsReady: boolean;
  /** Resolves once `statsReady`, when that comes before `loaded` (else never). */
  readonly statsLoaded: Promise<void>;
}

/**
 * The order of the loads at start. With a counting saved for the library on disk
 * (saved-counting.ts), the plays load first and the statistics are answered from them and that
 * counting while the library is read: the statistics need no more of it. Without one (a first start
 * of this version, a library changed or a log written since), the library is read first, for the
 * plays to count as it says. Either way the counting is saved again at close, once both are in.
 */
export function startLoads(deps: {
  indexed: IndexedStore;
  loading: LoadingIndex;
  statsIndex: StatsIndex;
  services: Services;
  logger: Logger;
  /** The wait between the steps of the loads. */
  loadTurn: () => Promise<void>;
  /** The wait before reading the library and between the steps that follow it. */
  libraryTurn: () => Promise<void>;
  /** Whether the server is closing. */
  closed: () => boolean;
  /** Until when (performance.now()) the counting may be made at a stop. */
  countingEnds: () => number;
}): StartLoads {
  const { indexed, loading, statsIndex, services, logger } = deps;
  const { store } = indexed;
  let onFailed: () => void = () => undefined;
  const failure = new Promise<void>((resolve) => {
    onFailed = resolve;
  });
  let statsReady = false;
  let onStatsReady: () => void = () => undefined;
  const statsLoaded = new Promise<void>((resolve) => {
    onStatsReady = resolve;
  });
  const readLibrary = () => openLibrary(store, services, deps.libraryTurn, logger, onFailed, deps.closed);
  const loadPlays = () => loadInBackground(loading, indexed.rebuildIndex, logger, onFailed);
  loading.whenDamaged(() => {
    logger.error('the saved play index holds a string twice; it is removed and rebuilt at the next start');
    indexed
      .dropSavedIndex()
      .catch((error: unknown) => logger.warn('could not remove plays.index', { error: String(error) }));
  });
  const loadAll = async () => {
    const counting = await indexed.savedCounting().catch(() => undefined);
    if (!counting) {
      await readLibrary();
      await loadPlays();
      return;
    }
    statsIndex.countAsSaved(counting.moved);
    services.stats.nameFrom(savedNames(counting));
    if (await loadPlays()) {
      // Only what tells it apart: its tables (every album's artists, the tracks named otherwise)
      // were the start's, and the library names the statistics from now on.
      const { stamp, size, mtimeMs, position, snapshots } = counting;
      used = { stamp, size, mtimeMs, position, snapshots };
      statsReady = true;
      onStatsReady();
    } else {
      // Rebuilt from the log, without the counting: the statistics wait for the library.
      statsIndex.countAsSaved(undefined);
      services.stats.useLibraryNames();
    }
    await readLibrary();
  };
  let begin: () => void = () => undefined;
  const loaded = new Promise<void>((resolve) => {
    begin = () => resolve(loadAll());
  });
  let counted = false;
  void loaded.then(() => (counted = true));
  // Once read, the library names what the statistics list (it may have been counted anew meanwhile).
  services.library.onOpened(() => services.stats.useLibraryNames());
  // The counting this start used, still saved: kept when nothing changed since (a close right after).
  let used: Pick<SavedCounting, keyof LibraryMark | 'position' | 'snapshots'> | undefined;
  indexed.countWith(async (at) => {
    const mark = counted ? await store.library.mark() : null;
    if (mark === null) return 'keep';
    if (
      used &&
      sameMark(used, mark) &&
      used.snapshots === at.snapshots &&
      samePosition(used.position, at.position)
    )
      return 'keep';
    // A stop must end within seconds (a supervisor kills what does not): over its time, none is
    // saved, and the next start reads the library first.
    const ends = deps.countingEnds();
    const inTime = () => performance.now() < ends;
    const counting = makeSavedCounting(
      statsIndex,
      libraryNames(services.library),
      { ...mark, ...at },
      inTime,
    );
    if (!counting)
      logger.warn('no time to save the play counting at this stop; the next start reads the library first');
    return counting ?? 'drop';
  });
  return {
    begin: () => begin(),
    loaded,
    failure,
    get statsReady() {
      return statsReady;
    },
    statsLoaded,
  };
}

/**
 * Reads the library once the server listens; resolves once it is in the store and the services. One
 * that cannot be read never resolves: the server stays starting, as after a failed load.
 */
function openLibrary(
  store: Store,
  services: Services,
  turn: () => Promise<void>,
  logger: Logger,
  onFailed: () => void,
  closed: () => boolean,
): Promise<void> {
  return turn()
    .then(() => store.library.open(turn))
    .then(
      () => services.library.opened(turn),
      (error: unknown) => {
        // A server closed before the read has let go of its data folder: nothing is read, and
        // nothing failed.
        if (!closed()) {
          logger.error('could not read the library (library.json)', { error: String(error) });
          onFailed();
        }
        return new Promise<void>(() => undefined);
      },
    );
}

/**
 * Runs the rest of the play index's load in the background, and rebuilds the index from the log
 * when the saved index turns out not to fit it; resolves once every play is in, to whether they came
 * from the saved index. A load that fails never resolves: the server stays starting (sign-ins
 * answered, everything else refused at once with 503, told by `onFailed`) and its log says why.
 */
function loadInBackground(
  loading: LoadingIndex,
  rebuild: () => Promise<void>,
  logger: Logger,
  onFailed: () => void,
): Promise<boolean> {
  const load = async () => {
    if (await loading.finish()) return true;
    await rebuild();
    return false;
  };
  return load().catch((error: unknown) => {
    logger.error('could not load the saved play index; remove plays.index to rebuild it from the log', {
      error: String(error),
    });
    onFailed();
    return new Promise<boolean>(() => undefined);
  });
}
