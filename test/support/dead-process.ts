import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The id of a process that has already exited. */
export function deadPid(): number {
  const result = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(result.stdout);
}

/**
 * Leaves the data folder's lock as a process killed while holding it would: its owner gone. For
 * tests that simulate a crash in-process by dropping a store without closing it.
 */
export async function orphanFolderLock(dataDir: string): Promise<void> {
  await writeFile(join(dataDir, 'melon.lock'), JSON.stringify({ pid: deadPid(), host: hostname() }));
}
