import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFolderInUseError, FolderLock } from '../../../server/store/folder-lock.js';
import { deadPid } from '../../support/dead-process.js';

let dataDir: string;
let lockPath: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'melon-folder-lock-'));
  lockPath = join(dataDir, 'melon.lock');
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const writeLock = (content: string) => writeFile(lockPath, content);

describe('FolderLock', () => {
  it('refuses a second holder until the first releases, then lets it in', async () => {
    const first = await FolderLock.acquire(dataDir);
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    const refused = FolderLock.acquire(dataDir);
    await expect(refused).rejects.toBeInstanceOf(DataFolderInUseError);
    await expect(refused).rejects.toThrow(`in use by another Melon (process ${process.pid})`);
    await first.release();
    await expect(readFile(lockPath)).rejects.toThrow(/ENOENT/);
    const second = await FolderLock.acquire(dataDir);
    await second.release();
  });

  it('refuses a lock held by another running process', async () => {
    await writeLock(JSON.stringify({ pid: process.ppid, host: hostname() }));
    await expect(FolderLock.acquire(dataDir)).rejects.toThrow(`(process ${process.ppid})`);
    // Left as it was: it is not ours.
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toEqual({ pid: process.ppid, host: hostname() });
  });

  it('refuses a lock from another host, whose process cannot be checked', async () => {
    await writeLock(JSON.stringify({ pid: deadPid(), host: `not-${hostname()}` }));
    await expect(FolderLock.acquire(dataDir)).rejects.toBeInstanceOf(DataFolderInUseError);
  });

  it('takes over the lock of a process that is gone (a crash or kill -9)', async () => {
    await writeLock(JSON.stringify({ pid: deadPid(), host: hostname() }));
    const lock = await FolderLock.acquire(dataDir);
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    await lock.release();
  });

  it('takes over a lock file torn by a crash while it was written', async () => {
    await writeLock('');
    const lock = await FolderLock.acquire(dataDir);
    await lock.release();
  });

  it("takes over its own process's lock when no store here holds it (dropped without closing)", async () => {
    await writeLock(JSON.stringify({ pid: process.pid, host: hostname() }));
    const lock = await FolderLock.acquire(dataDir);
    await lock.release();
  });
});
