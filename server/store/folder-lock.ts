import { hostname } from 'node:os';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode } from '../fs/errno.js';

const LOCK_FILE = 'melon.lock';

/** Refused start: another running Melon has the data folder (the message is for the person starting). */
export class DataFolderInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `The data folder ${dataDir} is in use by another Melon (process ${holderPid}). ` +
        `Stop it first, or set MELON_DATA_DIR to another folder. ` +
        `If no Melon is running, delete ${join(dataDir, LOCK_FILE)}.`,
    );
    this.name = 'DataFolderInUseError';
  }
}

interface LockContent {
  pid: number;
  host: string;
}

/** Folders locked by this process, so that a second store opened here on the same folder is refused too. */
const heldHere = new Set<string>();

/**
 * One running Melon per data folder: two processes appending to one play log and rewriting the same
 * JSON files would lose each other's writes. The lock is a file holding the owner's process id; it
 * is removed on a clean close and taken over when its owner is gone (after a crash or `kill -9`), so
 * a restart needs no manual step. Process ids on other machines (a folder on a network share) cannot
 * be checked: a lock from another host counts as held.
 */
export class FolderLock {
  private constructor(private readonly path: string) {}

  static async acquire(dataDir: string): Promise<FolderLock> {
    const path = join(dataDir, LOCK_FILE);
    // Two tries: the second after removing a lock whose owner is gone.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (await createExclusive(path)) {
        heldHere.add(path);
        return new FolderLock(path);
      }
      const holder = await readHolder(path);
      if (holder && isAlive(holder, path)) throw new DataFolderInUseError(dataDir, holder.pid);
      await rm(path, { force: true });
    }
    throw new DataFolderInUseError(dataDir, (await readHolder(path))?.pid ?? 0);
  }

  async release(): Promise<void> {
    heldHere.delete(this.path);
    await rm(this.path, { force: true });
  }
}

/** Creates the lock file only if none exists (O_EXCL); false when one does. */
async function createExclusive(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    const content: LockContent = { pid: process.pid, host: hostname() };
    // Not synced to disk: other processes see it at once, and after a power cut an empty or
    // missing lock is as good as the dead owner's (both are taken over). An fsync here would make
    // the start wait for the disk to write everything written before it.
    await handle.writeFile(JSON.stringify(content) + '\n');
  } finally {
    await handle.close();
  }
  return true;
}

/** The lock's owner, or undefined when the file is gone or unreadable (a torn write: its owner died). */
async function readHolder(path: string): Promise<LockContent | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockContent>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    return { pid: parsed.pid, host: parsed.host };
  } catch {
    return undefined;
  }
}

function isAlive(holder: LockContent, path: string): boolean {
  if (holder.host !== hostname()) return true;
  // Our own id: held only if a store in this process still has it (else a store here was dropped
  // without closing, as after a simulated crash in a test).
  if (holder.pid === process.pid) return heldHere.has(path);
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return errnoCode(error) === 'EPERM';
  }
}
