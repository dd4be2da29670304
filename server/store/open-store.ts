import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ArtworkRepo } from './artwork-repo.js';
import { BookmarksRepo } from './bookmarks-repo.js';
import { CollectionsRepo } from './collections-repo.js';
import { FavouritesRepo } from './favourites-repo.js';
import { FolderLock } from './folder-lock.js';
import { ForwardingRepo } from './forwarding-repo.js';
import type { ImportJob } from '../domain/import-job.js';
import { ImportJobsRepo } from './import-jobs.js';
import type { Logger } from '../logger.js';
import { LibraryRepo } from './library-repo.js';
import { SavedPlayIndexFile } from './saved-play-index.js';
import { PlayLog, type PlayLogOptions } from './play-log.js';
import type { PlayLogEntry } from '../domain/play.js';
import type { PlaySnapshot } from '../domain/play.js';
import { PlayQueuesRepo } from './play-queues-repo.js';
import { RadioStationsRepo } from './radio-stations-repo.js';
import { HiddenMixesRepo } from './hidden-mixes-repo.js';
import { RatingsRepo } from './ratings-repo.js';
import { loadOrCreateSecret } from './secret.js';
import { UnmatchedListens } from './unmatched-listens.js';
import { SettingsRepo } from './settings-repo.js';
import { UsersRepo } from './users-repo.js';

/**
 * The data folder. Everything Melon keeps lives here, and only code under store/ touches it, except
 * `updates/`, where the update service downloads an installer (services/updates/download.ts).
 */
export interface Store {
  readonly dataDir: string;
  readonly users: UsersRepo;
  readonly library: LibraryRepo;
  readonly ratings: RatingsRepo;
  readonly collections: CollectionsRepo;
  readonly artwork: ArtworkRepo;
  /** Each user's starred tracks, albums and artists. */
  readonly favourites: FavouritesRepo;
  /** Each user's saved play queue. */
  readonly playQueues: PlayQueuesRepo;
  /** The switches an Admin sets on the settings page. */
  readonly settings: SettingsRepo;
  /** Each user's bookmarks in tracks. */
  readonly bookmarks: BookmarksRepo;
  /** The household's internet radio stations. */
  readonly radioStations: RadioStationsRepo;
  /** The mixes each user hid. */
  readonly hiddenMixes: HiddenMixesRepo;
  /** The append-only play log (plays.jsonl): never rewritten, one fsynced line per log. */
  readonly plays: PlayLog;
  /** A saved copy of the index built from the play log (plays.index): a cache beside the log. */
  readonly savedPlayIndex: SavedPlayIndexFile;
  /** Listens that matched no library track (history/unmatched.jsonl). */
  readonly unmatchedListens: UnmatchedListens;
  /** Each member's forwarding of plays and its outbox (forwarding.json). */
  readonly forwarding: ForwardingRepo;
  /** The AES-256 key forwarding tokens are sealed with: its own file, like the app-password key. */
  readonly forwardingKey: Buffer;
  /** Imports of listening history: their records and uploads (imports/). */
  readonly importJobs: ImportJobsRepo<ImportJob>;
  readonly jwtSecret: Buffer;
  /** The AES-256 key app passwords are sealed with: its own file, never the JWT secret. */
  readonly appPasswordKey: Buffer;
  /** Wait for every acknowledged change to be on disk. */
  flush(): Promise<void>;
  /** Appends what the stats index gained since the last save to plays.index (done at close too). */
  savePlayIndex(): Promise<void>;
  close(): Promise<void>;
}

/** The in-memory index the play log is read into (the stats index); the store can save and load it. */
export interface PlayIndex {
  /**
   * Receives every play-log entry already on disk, in file order, while the store opens, then each
   * appended one; `snapshot` is the entry's snapshot number in the log, `line` where its line
   * starts (PlayLogOptions.onEntry).
   */
  add(entry: PlayLogEntry, snapshot: number, line: number): void;
  /** The log is open: read log ids from it from now on (PlayLog.idAt). */
  readIdsFrom(log: { idAt(line: number): string }): void;
  /** Bytes for what was added since the last call (or since `load`): the saved index only grows. */
  takeUnsaved(): Uint8Array[];
  /**
   * Loads saved parts, in order, into this empty index, with the snapshot texts of the log up to
   * where they were saved; false when they are not usable (the store then rebuilds from the log).
   */
  load(parts: Uint8Array[], logSnapshots: readonly PlaySnapshot[]): boolean;
  /** The log is read: a moment to drop spare room. */
  settle(): void;
}

export interface StoreOptions {
  logger: Logger;
  playIndex?: PlayIndex;
  /**
   * How the play log is read, asked once the folder is locked and before the log is: from which
   * position on (a saved copy of what was built from it, see `Store.savedPlayIndex`), and who hears
   * each entry read, then each one appended the moment it is durable. Without it the whole log is
   * read and nobody hears its entries.
   */
  readPlays?: (savedPlayIndex: SavedPlayIndexFile) => Promise<PlayLogReading>;
}

/** Where reading the play log starts and who hears its entries (PlayLogOptions). */
export type PlayLogReading = Pick<PlayLogOptions, 'onEntry' | 'from'>;

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

const LOG_FILE = 'plays.jsonl';
const INDEX_FILE = 'plays.index';

/** Where the saved index stands, so the next save appends to it; undefined: write it afresh. */
interface SavedIndexState {
  bytes: number;
  /** How many of the log's snapshots it holds. */
  logSnapshots: number;
}

/**
 * Opens the play log, reading only the lines after the saved index when that index still fits the
 * log (a version-1 log is migrated first, and its old index, of another format, is not used).
 */
async function openPlayLog(
  dataDir: string,
  { logger, playIndex, readPlays }: StoreOptions,
  added: () => void,
): Promise<{ plays: PlayLog; savedFile: SavedPlayIndexFile; saved: SavedIndexState | undefined }> {
  const logPath = join(dataDir, LOG_FILE);
  const savedFile = new SavedPlayIndexFile(join(dataDir, INDEX_FILE), logPath);
  if (!playIndex) {
    const reading = await readPlays?.(savedFile);
    const plays = await PlayLog.open(logPath, {
      logger,
      onEntry: reading?.onEntry ?? (() => undefined),
      from: reading?.from,
    });
    return { plays, savedFile, saved: undefined };
  }
  const saved = await savedFile.read();
  const usable = saved && playIndex.load(saved.data, saved.from.snapshots.snapshots);
  if (saved !== undefined && !usable)
    logger.warn('the saved play index does not fit the play log; rebuilding it');
  const plays = await PlayLog.open(logPath, {
    logger,
    onEntry: (entry, snapshot, line) => {
      playIndex.add(entry, snapshot, line);
      added();
    },
    from: usable ? saved.from : undefined,
  });
  playIndex.settle();
  playIndex.readIdsFrom(plays);
  return {
    plays,
    savedFile,
    saved: usable ? { bytes: saved.bytes, logSnapshots: saved.logSnapshots } : undefined,
  };
}

export async function openStore(dataDir: string, options: StoreOptions): Promise<Store> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const lock = await FolderLock.acquire(dataDir);
  try {
    return await openLocked(dataDir, options, lock);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** Only the accounts of a data folder, locked like the whole store (the `melon` command-line tools). */
export interface AccountsStore {
  readonly users: UsersRepo;
  readonly ratings: RatingsRepo;
  close(): Promise<void>;
}

/**
 * Opens the accounts without the play log and library, which a password reset does not need and a
 * large log would make slow. Refused with DataFolderInUseError while a Melon runs on the folder.
 */
export async function openAccounts(dataDir: string): Promise<AccountsStore> {
  const lock = await FolderLock.acquire(dataDir);
  try {
    const users = await UsersRepo.open(join(dataDir, 'users.json'));
    const ratings = await RatingsRepo.open(join(dataDir, 'ratings.json'));
    const close = async () => {
      try {
        await Promise.all([users.flush(), ratings.flush()]);
      } finally {
        await lock.release();
      }
    };
    return { users, ratings, close };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function openLocked(dataDir: string, options: StoreOptions, lock: FolderLock): Promise<Store> {
  const users = await UsersRepo.open(join(dataDir, 'users.json'));
  const library = await LibraryRepo.open(join(dataDir, 'library.json'));
  const ratings = await RatingsRepo.open(join(dataDir, 'ratings.json'));
  const collections = await CollectionsRepo.open(join(dataDir, 'playlists.json'));
  const artwork = await ArtworkRepo.open(dataDir);
  const favourites = await FavouritesRepo.open(join(dataDir, 'favourites.json'));
  const playQueues = await PlayQueuesRepo.open(join(dataDir, 'play-queues.json'));
  const settings = await SettingsRepo.open(join(dataDir, 'settings.json'));
  const bookmarks = await BookmarksRepo.open(join(dataDir, 'bookmarks.json'));
  const radioStations = await RadioStationsRepo.open(join(dataDir, 'radio-stations.json'));
  const hiddenMixes = await HiddenMixesRepo.open(join(dataDir, 'mixes.json'));
  const jwtSecret = await loadOrCreateSecret(join(dataDir, 'secret.key'));
  const appPasswordKey = await loadOrCreateSecret(join(dataDir, 'app-passwords.key'));
  const forwardingKey = await loadOrCreateSecret(join(dataDir, 'forwarding.key'));
  const forwarding = await ForwardingRepo.open(join(dataDir, 'forwarding.json'));
  let addedSinceSave = 0;
  let onAdded: () => void = () => undefined;
  const opened = await openPlayLog(dataDir, options, () => onAdded());
  const plays = opened.plays;
  const unmatchedListens = await UnmatchedListens.open(join(dataDir, 'history', 'unmatched.jsonl'));
  const importJobs = await ImportJobsRepo.open<ImportJob>(join(dataDir, 'imports'));
  const savedPlayIndex = opened.savedFile;
  let savedIndex = opened.saved;
  let indexBroken = false;
  let saving = Promise.resolve();
  /**
   * Appends what the index gained since the last save (the whole index the first time), one save
   * at a time. The index's part is taken synchronously with the log position, so the two match.
   * Writing is asynchronous (no stall of the event loop); a save that fails leaves no usable file.
   */
  const saveIndex = () => {
    const run = async () => {
      if (indexBroken || !options.playIndex) return;
      if (plays.indexMissedEntries) {
        // The index lacks an entry the log has: do not keep a copy of it, rebuild at the next start.
        indexBroken = true;
        await savedPlayIndex.remove();
        return;
      }
      const logSnapshots = plays.durableSnapshots;
      const segment = {
        position: plays.position(),
        logSnapshots: plays.snapshots.texts.slice(savedIndex?.logSnapshots ?? 0, logSnapshots),
        data: options.playIndex.takeUnsaved(),
      };
      try {
        const bytes = savedIndex
          ? await savedPlayIndex.append(savedIndex.bytes, segment)
          : await savedPlayIndex.write(segment);
        savedIndex = { bytes, logSnapshots };
      } catch (error) {
        // What was taken is not in the file: later segments would not follow on. Rebuild next start.
        indexBroken = true;
        await savedPlayIndex.remove().catch(() => undefined);
        throw error;
      }
    };
    saving = saving.then(run, run);
    return saving;
  };
  // In the background: serving need not wait for it.
  const saveInBackground = () => {
    addedSinceSave = 0;
    saveIndex().catch((error: unknown) =>
      options.logger.warn('could not save the play index', { error: String(error) }),
    );
  };
  if (plays.replayed > SAVE_INDEX_AFTER_REPLAYING) saveInBackground();
  onAdded = () => {
    addedSinceSave += 1;
    if (addedSinceSave >= SAVE_INDEX_EVERY) saveInBackground();
  };
  const flush = async () => {
    await Promise.all([
      users.flush(),
      library.flush(),
      ratings.flush(),
      collections.flush(),
      artwork.flush(),
      favourites.flush(),
      playQueues.flush(),
      settings.flush(),
      bookmarks.flush(),
      radioStations.flush(),
      hiddenMixes.flush(),
      forwarding.flush(),
      plays.flush(),
    ]);
  };
  const close = async () => {
    await flush();
    try {
      await saveIndex();
    } catch (error) {
      // Only a cache: the next start rebuilds the index from the log.
      options.logger.warn('could not save the play index', { error: String(error) });
    }
    await plays.close();
    await unmatchedListens.close();
    await lock.release();
  };
  return {
    dataDir,
    users,
    library,
    ratings,
    collections,
    artwork,
    favourites,
    playQueues,
    settings,
    bookmarks,
    radioStations,
    hiddenMixes,
    plays,
    savedPlayIndex,
    unmatchedListens,
    forwarding,
    forwardingKey,
    importJobs,
    jwtSecret,
    appPasswordKey,
    flush,
    savePlayIndex: saveIndex,
    close,
  };
}
