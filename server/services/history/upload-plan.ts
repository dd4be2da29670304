import { open } from 'node:fs/promises';
import type { ImportSource } from '../../domain/import-job.js';
import type { ParsedEntry } from '../../domain/listen.js';
import { badRequest } from '../../errors.js';
import {
  emptyZipReason,
  formatOfZipEntry,
  FORMATS,
  recognise,
  type FormatId,
  type ReadOptions,
} from './parsers/formats.js';
import { fileReader, streamReader, type ReadProgress } from './parsers/streams.js';
import { isZip, listZip, readZip, ZipRefusedError } from './parsers/zip-archive.js';

/** How much of a file is looked at to recognise it. */
const HEAD_BYTES = 64 * 1024;

/**
 * What an upload was taken for: one history file of a format, or an export ZIP whose entries of
 * listens are read one after another (the others passed over).
 */
export interface UploadPlan {
  /** The format of a single file; 'zip' for an export ZIP. */
  format: FormatId | 'zip';
  source: ImportSource;
  takenAs: string;
  /** The bytes to read: the file's, or the chosen entries' unpacked. */
  bytes: number;
}

/**
 * Looks at an upload and says what it is, or refuses it with a 400 that says what it looks like
 * and what to upload instead: an empty file, a file of no format Melon reads, a ZIP over its
 * limits (zip-archive.ts) or with no history in it.
 */
export async function planUpload(
  path: string,
  hint: ImportSource | undefined,
  maxBytes: number,
): Promise<UploadPlan> {
  const head = await readHead(path);
  if (isZip(head.bytes)) return planZip(path, maxBytes);
  const found = recognise(head.bytes.toString('utf8'), hint);
  if (typeof found !== 'string')
    throw badRequest(found.empty ? 'import_empty' : 'import_unrecognised', found.reason);
  return { format: found, source: FORMATS[found].source, takenAs: FORMATS[found].label, bytes: head.size };
}

async function planZip(path: string, maxBytes: number): Promise<UploadPlan> {
  const names: string[] = [];
  let entries;
  try {
    entries = await listZip(
      path,
      (name) => {
        names.push(name);
        return formatOfZipEntry(name) !== null;
      },
      maxBytes,
    );
  } catch (error) {
    const reason =
      error instanceof ZipRefusedError ? error.message : `The ZIP cannot be read: ${String(error)}`;
    throw badRequest('import_archive_refused', reason);
  }
  if (entries.length === 0) throw badRequest('import_unrecognised', emptyZipReason(names));
  const formats = new Set(entries.map((e) => formatOfZipEntry(e.name)!));
  const sources = new Set([...formats].map((f) => FORMATS[f].source));
  const files = entries.length === 1 ? '1 file' : `${entries.length} files`;
  const what =
    sources.size > 1
      ? 'An export ZIP'
      : sources.has('listenbrainz')
        ? "ListenBrainz's export ZIP"
        : "Spotify's my_spotify_data.zip";
  return {
    format: 'zip',
    source: FORMATS[formatOfZipEntry(entries[0]!.name)!].source,
    takenAs: `${what} (${files} of listens: ${[...formats].map((f) => FORMATS[f].label).join(', ')})`,
    bytes: entries.reduce((sum, e) => sum + e.size, 0),
  };
}

async function readHead(path: string): Promise<{ bytes: Buffer; size: number }> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const buf = Buffer.alloc(Math.min(size, HEAD_BYTES));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return { bytes: buf.subarray(0, bytesRead), size };
  } finally {
    await handle.close();
  }
}

/** An entry of an upload, with the file of the ZIP it is in and the service it is from. */
export interface UploadEntry {
  entry: ParsedEntry;
  file: string | null;
  source: ImportSource;
}

/**
 * The entries of an upload as its plan says, in order; `progress` counts the bytes read of all it
 * reads (unpacked, for a ZIP) against the plan's total.
 */
export async function* readUpload(
  path: string,
  plan: UploadPlan,
  progress: ReadProgress,
  options: ReadOptions,
): AsyncGenerator<UploadEntry> {
  progress.size = plan.bytes;
  progress.read = 0;
  const piece = { read: 0 };
  if (plan.format !== 'zip') {
    const format = FORMATS[plan.format];
    const handle = await open(path, 'r');
    try {
      for await (const entry of format.read(fileReader(handle), piece, options)) {
        progress.read = piece.read;
        yield { entry, file: null, source: format.source };
      }
    } finally {
      await handle.close();
    }
    return;
  }
  let before = 0;
  for await (const { name, chunks } of readZip(path, (n) => formatOfZipEntry(n) !== null)) {
    const format = FORMATS[formatOfZipEntry(name)!];
    piece.read = 0;
    for await (const entry of format.read(streamReader(chunks), piece, options)) {
      progress.read = before + piece.read;
      yield { entry, file: name, source: format.source };
    }
    before += piece.read;
  }
}
