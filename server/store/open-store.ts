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
import { DeferredLibrary } from './deferred-library.js';
import { SavedPlayIndexFile } from './saved-play-index.js';
import { PlayLog, type PlayLogOptions } from './play-log.js';
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
  /** The scanned library: read at open, or at `library.open()` when opened with `libraryLater`. */
  readonly library: DeferredLibrary;
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
  close(): Promise<void>;
}

export interface StoreOptions {
  logger: Logger;
  /**
   * How the play log is read, asked once the folder is locked and before the log is: from which
   * position on (a saved copy of what was built from it, see `Store.savedPlayIndex`), and who hears
   * each entry read, then each one appended the moment it is durable. Without it the whole log is
   * read and nobody hears its entries.
   */
  readPlays?: (savedPlayIndex: SavedPlayIndexFile) => Promise<PlayLogReading>;
  /**
   * Leaves library.json unread until `library.open()`: a server listens first, with the library
   * empty until then (http/starting.ts holds what needs it).
   */
  libraryLater?: boolean;
}

/** Where reading the play log starts and who hears its entries (PlayLogOptions). */
export type PlayLogReading = Pick<PlayLogOptions, 'onEntry' | 'onRows' | 'from'>;

const LOG_FILE = 'plays.jsonl';
const INDEX_FILE = 'plays.index';

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
  const library = new DeferredLibrary(join(dataDir, 'library.json'));
  if (!options.libraryLater) await library.open();
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
  const logPath = join(dataDir, LOG_FILE);
  const savedPlayIndex = new SavedPlayIndexFile(join(dataDir, INDEX_FILE), logPath);
  const reading = await options.readPlays?.(savedPlayIndex);
  const plays = await PlayLog.open(logPath, {
    logger: options.logger,
    onEntry: reading?.onEntry ?? (() => undefined),
    onRows: reading?.onRows,
    from: reading?.from,
  });
  const unmatchedListens = await UnmatchedListens.open(join(dataDir, 'history', 'unmatched.jsonl'));
  const importJobs = await ImportJobsRepo.open<ImportJob>(join(dataDir, 'imports'));
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
    library.close();
    await flush();
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
    close,
  };
}
