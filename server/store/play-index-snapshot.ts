import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../fs/atomic-file.js';
import type { LogPosition } from './play-log.js';

/**
 * A saved copy of the in-memory play index (`plays.index`), so a start does not have to re-read and
 * re-index a log of a million lines (~15 s here): it loads the copy and reads only the log lines
 * after the position the copy was taken at. The copy is a cache: the log stays the only record,
 * and a copy that is missing, unreadable or for another log is ignored (the index is rebuilt).
 *
 * File layout: one JSON header line, then the index's own bytes.
 */
const SCHEMA_VERSION = 1;

interface Header {
  schemaVersion: number;
  position: LogPosition;
  length: number;
}

export interface PlayIndexSnapshot {
  position: LogPosition;
  data: Uint8Array;
}

export async function readPlayIndexSnapshot(path: string): Promise<PlayIndexSnapshot | undefined> {
  const file = await readFile(path).catch(() => undefined);
  if (!file) return undefined;
  const newline = file.indexOf(0x0a);
  if (newline < 0) return undefined;
  let header: Partial<Header>;
  try {
    header = JSON.parse(file.toString('utf8', 0, newline)) as Partial<Header>;
  } catch {
    return undefined;
  }
  const data = file.subarray(newline + 1);
  const { position } = header;
  if (
    header.schemaVersion !== SCHEMA_VERSION ||
    header.length !== data.length ||
    typeof position?.bytes !== 'number' ||
    typeof position.entries !== 'number' ||
    typeof position.tail !== 'string'
  ) {
    return undefined;
  }
  return { position, data };
}

export async function writePlayIndexSnapshot(path: string, snapshot: PlayIndexSnapshot): Promise<void> {
  const header: Header = {
    schemaVersion: SCHEMA_VERSION,
    position: snapshot.position,
    length: snapshot.data.length,
  };
  const head = Buffer.from(JSON.stringify(header) + '\n');
  await writeFileAtomic(path, [head, snapshot.data], 0o600);
}
