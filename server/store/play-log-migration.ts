import { link, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fsyncDir } from '../fs/atomic-file.js';
import { errnoCode } from '../fs/errno.js';
import type { Logger } from '../logger.js';
import { decodeV1Line, HEADER, playLine, tryParse, V1_SCHEMA_VERSION } from './play-log-codec.js';
import { readHeader, readLines } from './play-log-reader.js';
import { LogSnapshots } from './play-log-snapshots.js';

/** Written out in pieces of about this size, so a big log is never one string in memory. */
const WRITE_CHUNK = 4 * 1024 * 1024;

/** Where the version-1 log is kept after a migration, until its owner deletes it. */
export const v1BackupPath = (path: string) => join(dirname(path), `${basename(path, '.jsonl')}.v1.jsonl`);

/**
 * Rewrites a version-1 play log at `path` in version 2 (play-log-codec.ts), keeping every readable
 * entry, its id and its snapshot; true when it did. The new file is written beside it, fsynced and
 * renamed over it, so a crash leaves either the old log or the whole new one (and the next start
 * migrates again). The old log stays as `plays.v1.jsonl` (a hard link: no copy) for its owner to
 * delete. A saved index of the old log no longer fits the new one, so the index is rebuilt.
 */
export async function migrateV1Log(path: string, logger: Logger): Promise<boolean> {
  const handle = await open(path, 'r').catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return false;
  const temp = `${path}.migrating`;
  try {
    const header = await readHeader(handle);
    const parsed = header && (tryParse(header.text) as { schemaVersion?: unknown } | undefined);
    if (!header || header.bytes < 0 || parsed?.schemaVersion !== V1_SCHEMA_VERSION) return false;

    logger.info('play log: migrating to format 2', { path });
    const out = await open(temp, 'w', 0o600);
    let entries = 0;
    try {
      const snapshots = new LogSnapshots();
      let pending: string[] = [HEADER];
      let pendingBytes = 0;
      const lines: string[] = [];
      // Lines are gathered during the synchronous read callback and written between reads.
      const read = (buf: Buffer, start: number, end: number): boolean => {
        const entry = decodeV1Line(buf.toString('utf8', start, end));
        if (!entry) return false;
        lines.length = 0;
        const n = snapshots.numberFor(entry, lines);
        lines.push(playLine(entry, n));
        for (const line of lines) {
          pending.push(line);
          pendingBytes += line.length;
        }
        entries += 1;
        return true;
      };
      let flushing = Promise.resolve();
      const flush = () => {
        const data = pending.join('');
        pending = [];
        pendingBytes = 0;
        flushing = flushing.then(() => out.writeFile(data));
      };
      // Its warnings name the lines where they stay: in the old log, kept as the backup below.
      await readLines(handle, v1BackupPath(path), logger, header.bytes, (buf, start, end) => {
        const ok = read(buf, start, end);
        if (pendingBytes > WRITE_CHUNK) flush();
        return ok;
      });
      flush();
      await flushing;
      await out.sync();
    } finally {
      await out.close();
    }
    const backup = v1BackupPath(path);
    await rm(backup, { force: true });
    await link(path, backup);
    await rename(temp, path);
    await fsyncDir(dirname(path));
    logger.info('play log: migrated to format 2', { path, entries, backup });
    return true;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  } finally {
    await handle.close();
  }
}
