import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadOrCreateSecret } from './secret.js';
import { UsersRepo } from './users-repo.js';

/**
 * The data folder. Everything Melon keeps lives here, and only code under store/ touches it.
 */
export interface Store {
  readonly dataDir: string;
  readonly users: UsersRepo;
  readonly jwtSecret: Buffer;
  /** Wait for every acknowledged change to be on disk. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export async function openStore(dataDir: string): Promise<Store> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const users = await UsersRepo.open(join(dataDir, 'users.json'));
  const jwtSecret = await loadOrCreateSecret(join(dataDir, 'secret.key'));
  const flush = async () => {
    await users.flush();
  };
  return { dataDir, users, jwtSecret, flush, close: flush };
}
