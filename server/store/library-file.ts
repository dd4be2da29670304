import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { AlbumRecord, ArtistRecord, LibraryIndex, TrackRecord } from '../domain/library.js';
import { replaceFileAtomic } from '../fs/atomic-file.js';
import { errnoCode } from '../fs/errno.js';
import { StoreFileError } from './json-document.js';

/**
 * library.json: one JSON document, `{"schemaVersion":1,"stamp":"…","artists":[…],"albums":[…],"tracks":[…]}`,
 * written with one record per line. The stamp is new at every write: what was saved against one
 * library (the statistics' counting, stats/persistence/saved-counting.ts) is known to fit it by its
 * stamp alone, without reading the file. Any JSON reader reads it whole; Melon reads it a line at a
 * time, so a library of hundreds of thousands of tracks is never held as one string the size of
 * the file beside its records, and the event loop gets a turn between chunks. A file in another
 * layout (an older Melon wrote it on one line, or a person edited it) is read whole, as before.
 */

export const LIBRARY_SCHEMA_VERSION = 1;

/** The first line as written: the head with its stamp (a file written before stamps has none). */
const STAMPED_HEAD = new RegExp(
  `^\\{"schemaVersion":${LIBRARY_SCHEMA_VERSION},(?:"stamp":"([0-9a-f]{16})",)?"artists":\\[\\n`,
  'u',
);
const headOf = (stamp: string) => `{"schemaVersion":${LIBRARY_SCHEMA_VERSION},"stamp":"${stamp}","artists":[`;
/** Enough bytes for the first line with its stamp. */
const HEAD_BYTES = headOf('0'.repeat(16)).length + 1;
const SECTIONS = ['artists', 'albums', 'tracks'] as const;
type Section = (typeof SECTIONS)[number];
const closing = (next: Section | undefined) => (next ? `],"${next}":[` : ']}');

/** What a record line holds, handed to `keep` (which may make the record smaller) as it is read. */
export interface RecordSink {
  artist(raw: ArtistRecord): ArtistRecord;
  album(raw: AlbumRecord): AlbumRecord;
  track(raw: TrackRecord): TrackRecord;
}

const asIs: RecordSink = { artist: (r) => r, album: (r) => r, track: (r) => r };

/** Whether library.json is a record a line, as writeLibraryFile writes it. */
export async function isInLines(path: string): Promise<boolean> {
  return STAMPED_HEAD.test(await firstBytes(path, HEAD_BYTES));
}

/**
 * The stamp in library.json's head, read without the rest of the file; null when there is no file
 * or its head has no stamp.
 */
export async function readLibraryStamp(path: string): Promise<string | null> {
  try {
    return STAMPED_HEAD.exec(await firstBytes(path, HEAD_BYTES))?.[1] ?? null;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/**
 * What tells one library.json from another without reading it: the stamp in its head, and the
 * file's size and modification time, which an edit by hand that keeps the head changes.
 */
export interface LibraryMark {
  stamp: string;
  size: number;
  mtimeMs: number;
}

/** How far apart two times of one file may be: a copy that keeps times may keep them to the millisecond. */
const SAME_TIME_MS = 2;

/**
 * Whether two marks are of the same file. A copy or a restore that keeps times (cp -p, rsync -a, a
 * backup tool, Node's own copy) may round them, and must still count as the file it copies.
 */
export function sameMark(a: LibraryMark, b: LibraryMark): boolean {
  return a.stamp === b.stamp && a.size === b.size && Math.abs(a.mtimeMs - b.mtimeMs) < SAME_TIME_MS;
}

/** The mark of library.json as it is on disk; null when there is no file or its head has no stamp. */
export async function readLibraryMark(path: string): Promise<LibraryMark | null> {
  try {
    // Taken before the head: a file replaced in between shows another stamp or another time.
    const { size, mtimeMs } = await stat(path);
    const stamp = await readLibraryStamp(path);
    return stamp === null ? null : { stamp, size, mtimeMs };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Reads library.json; null when there is none. A file Melon cannot read is never overwritten.
 * `turn`, awaited between its chunks (a file a record a line), lets the read give way to other work.
 */
export async function readLibraryFile(
  path: string,
  keep: RecordSink = asIs,
  turn?: () => Promise<void>,
): Promise<LibraryIndex | null> {
  let lines: boolean;
  try {
    lines = await isInLines(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
  return lines ? readLines(path, keep, turn) : readWhole(path, keep);
}

async function firstBytes(path: string, length: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

const invalid = (path: string) =>
  new StoreFileError(`${path} is not valid JSON; fix or restore it before starting Melon`);

/**
 * Bytes read from library.json at a time: a few hundred records, read in one turn of the event
 * loop, so a small chunk is a short turn. Small enough too that a chunk's text is a string of the
 * young generation: a string past V8's largest regular object (128 KiB) is made in the old one, and
 * a library's worth of them brought its full collections into the read.
 */
export const CHUNK_BYTES = 1 << 16;

async function readLines(path: string, keep: RecordSink, turn?: () => Promise<void>): Promise<LibraryIndex> {
  const index: LibraryIndex = { artists: [], albums: [], tracks: [] };
  let section = -1;
  let ended = false;
  const take = (line: string) => {
    if (section < 0) {
      section = 0;
      return;
    }
    if (ended || section >= SECTIONS.length) throw invalid(path);
    if (line === closing(SECTIONS[section + 1])) {
      section++;
      ended = section === SECTIONS.length;
      return;
    }
    const text = line.endsWith(',') ? line.slice(0, -1) : line;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw invalid(path);
    }
    if (typeof raw !== 'object' || raw === null) throw invalid(path);
    add(index, SECTIONS[section]!, raw, keep);
  };
  // Lines split here rather than by node:readline, which costs an event and a promise a line.
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
    const text = rest + decoder.write(chunk as Buffer);
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      take(text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end));
      start = end + 1;
    }
    rest = text.slice(start);
    if (turn) await turn();
  }
  rest += decoder.end();
  if (rest.length > 0) take(rest);
  if (!ended) throw invalid(path);
  // Copies as long as their records: a list grown by pushing keeps up to half as many slots again
  // spare, for as long as the library is the store's.
  return { artists: index.artists.slice(), albums: index.albums.slice(), tracks: index.tracks.slice() };
}

function add(index: LibraryIndex, section: Section, raw: object, keep: RecordSink): void {
  if (section === 'artists') index.artists.push(keep.artist(raw as ArtistRecord));
  else if (section === 'albums') index.albums.push(keep.album(raw as AlbumRecord));
  else index.tracks.push(keep.track(raw as TrackRecord));
}

async function readWhole(path: string, keep: RecordSink): Promise<LibraryIndex> {
  let data: Partial<LibraryIndex> & { schemaVersion?: unknown };
  try {
    data = JSON.parse(await readFile(path, 'utf8')) as typeof data;
  } catch (error) {
    if (error instanceof SyntaxError) throw invalid(path);
    throw error;
  }
  const version = data.schemaVersion;
  if (typeof version !== 'number' || version > LIBRARY_SCHEMA_VERSION)
    throw new StoreFileError(
      `${path} has schema version ${String(version)}; this Melon understands up to ${LIBRARY_SCHEMA_VERSION}`,
    );
  return {
    artists: (data.artists ?? []).map((r) => keep.artist(r)),
    albums: (data.albums ?? []).map((r) => keep.album(r)),
    tracks: (data.tracks ?? []).map((r) => keep.track(r)),
  };
}

/** Records a write puts in one piece: large enough to write fast, small enough to stay small. */
const RECORDS_PER_WRITE = 2000;

/**
 * Replaces library.json with `index` as a crash-safe write (temporary file, fsync, rename, fsync of
 * the folder), a few thousand records at a time; resolves to the new file's stamp.
 */
export async function writeLibraryFile(path: string, index: Readonly<LibraryIndex>): Promise<string> {
  const stamp = randomBytes(8).toString('hex');
  await replaceFileAtomic(path, 0o600, async (handle) => {
    await handle.writeFile(`${headOf(stamp)}\n`);
    for (const [at, section] of SECTIONS.entries()) {
      const records: readonly object[] = index[section];
      for (let start = 0; start < records.length; start += RECORDS_PER_WRITE) {
        const end = Math.min(records.length, start + RECORDS_PER_WRITE);
        let text = '';
        for (let i = start; i < end; i++)
          text += JSON.stringify(records[i]) + (i === records.length - 1 ? '\n' : ',\n');
        await handle.writeFile(text);
      }
      await handle.writeFile(`${closing(SECTIONS[at + 1])}\n`);
    }
  });
  return stamp;
}
