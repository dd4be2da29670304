import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ArtworkRepo } from './artwork-repo.js';
import { CollectionsRepo } from './collections-repo.js';
import type { Logger } from '../logger.js';
import { LibraryRepo } from './library-repo.js';
import { PlayLog, type PlayLogEntry } from './play-log.js';
import { RatingsRepo } from './ratings-repo.js';
import { loadOrCreateSecret } from './secret.js';
import { UsersRepo } from './users-repo.js';

/**
 * The data folder. Everything Melon keeps lives here, and only code under store/ touches it.
 */
export interface Store {
  readonly dataDir: string;
  readonly users: UsersRepo;
  readonly library: LibraryRepo;
  readonly ratings: RatingsRepo;
  readonly collections: CollectionsRepo;
  readonly artwork: ArtworkRepo;
  /** The append-only play log (plays.jsonl): never rewritten, one fsynced line per log. */
  readonly plays: PlayLog;
  readonly jwtSecret: Buffer;
  /** Wait for every acknowledged change to be on disk. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  logger: Logger;
  /** Receives every play-log entry already on disk, in file order, while the store opens. */
  onPlay: (entry: PlayLogEntry) => void;
}

export async function openStore(dataDir: string, options: StoreOptions): Promise<Store> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const users = await UsersRepo.open(join(dataDir, 'users.json'));
  const library = await LibraryRepo.open(join(dataDir, 'library.json'));
  const ratings = await RatingsRepo.open(join(dataDir, 'ratings.json'));
  const collections = await CollectionsRepo.open(join(dataDir, 'playlists.json'));
  const artwork = await ArtworkRepo.open(dataDir);
  const jwtSecret = await loadOrCreateSecret(join(dataDir, 'secret.key'));
  const plays = await PlayLog.open(join(dataDir, 'plays.jsonl'), {
    logger: options.logger,
    onEntry: options.onPlay,
  });
  const flush = async () => {
    await Promise.all([
      users.flush(),
      library.flush(),
      ratings.flush(),
      collections.flush(),
      artwork.flush(),
      plays.flush(),
    ]);
  };
  const close = async () => {
    await flush();
    await plays.close();
  };
  return { dataDir, users, library, ratings, collections, artwork, plays, jwtSecret, flush, close };
}
