import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { AppError } from '../errors.js';
import { UserService } from '../services/user-service.js';
import { DataFolderInUseError } from '../store/folder-lock.js';
import { openAccounts } from '../store/open-store.js';

/**
 * `melon reset-password <username>`: recovery for whoever holds the machine. Prints a new generated
 * password and signs the account out everywhere. Refused while a Melon runs on the data folder:
 * the running server would keep (and later write back) the old account.
 */
export async function resetPassword(username: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { dataDir } = loadConfig(env);
  if (!existsSync(join(dataDir, 'users.json'))) {
    console.error(`No Melon accounts in ${dataDir}. Set MELON_DATA_DIR to the data folder your Melon uses.`);
    return 1;
  }
  let accounts;
  try {
    accounts = await openAccounts(dataDir);
  } catch (error) {
    if (!(error instanceof DataFolderInUseError)) throw error;
    console.error(
      `Melon is running on ${dataDir} (process ${error.holderPid}). Stop it first, then run ` +
        `reset-password again.`,
    );
    return 1;
  }
  try {
    const users = new UserService(accounts.users, [accounts.ratings], systemClock);
    const { user, password } = await users.resetPassword(username);
    console.log(
      `New password for '${user.username}': ${password}\n` +
        `  It is shown only this once. Every device signed in as '${user.username}' must sign in again.`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'user_not_found')) throw error;
    const known = accounts.users.list().map((user) => user.username);
    console.error(`No user named '${username}' in ${dataDir}. The users are: ${known.join(', ')}.`);
    return 1;
  } finally {
    await accounts.close();
  }
}
