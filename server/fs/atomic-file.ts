import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** fsync a directory so a rename inside it survives a power cut. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replace `path` with `data` so that a crash leaves either the old or the new content, never a mix:
 * write a temporary file in the same folder, fsync it, rename it over the original, fsync the folder.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | Uint8Array[],
  mode = 0o644,
): Promise<void> {
  await replaceFileAtomic(path, mode, async (handle) => {
    // Parts are written one after the other, so a big file need not be joined in memory first.
    for (const part of Array.isArray(data) ? data : [data]) await handle.writeFile(part);
  });
}

/** writeFileAtomic, with the content written by `write` (a large file a piece at a time). */
export async function replaceFileAtomic(
  path: string,
  mode: number,
  write: (handle: FileHandle) => Promise<void>,
): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  await writeSynced(temp, 'wx', mode, write);
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await fsyncDir(dir);
}

/**
 * Writes the file `path` (opened with `flags`) through `write`, then fsyncs and closes it. If
 * anything fails the file is closed and removed, so no half-written file is left behind.
 */
export async function writeSynced(
  path: string,
  flags: string,
  mode: number,
  write: (handle: FileHandle) => Promise<void>,
): Promise<void> {
  const handle = await open(path, flags, mode);
  try {
    await write(handle);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(path, { force: true });
    throw error;
  }
  await handle.close();
}
