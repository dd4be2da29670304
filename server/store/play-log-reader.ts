import type { FileHandle } from 'node:fs/promises';
import type { Logger } from '../logger.js';
import { SCHEMA_VERSION, tryParse } from './play-log-codec.js';

/** Big reads: the log of a busy household reaches hundreds of MB, and each read is a syscall. */
const READ_CHUNK = 8 * 1024 * 1024;
const NEWLINE = 0x0a;
/**
 * Unreadable lines named one by one in a read; the rest are counted in one line at its end. A log
 * damaged throughout (overwritten by something else) would otherwise write a warning per line, and
 * a worker thread reading it would queue them all for the main thread.
 */
export const LINE_WARNINGS = 10;

export interface ReadResult {
  /** Where the last whole, readable line ends. */
  goodBytes: number;
  fileBytes: number;
}

/**
 * Takes one line, `buf[start, end)` without its newline, which starts at byte `offset` of the file;
 * false when it cannot read it. The bytes are only valid during the call.
 */
export type LineReader = (buf: Buffer, start: number, end: number, offset: number) => boolean;

/** The first line of the file (its header) and where it ends; undefined for an empty file. */
export async function readHeader(handle: FileHandle): Promise<{ text: string; bytes: number } | undefined> {
  const buf = Buffer.alloc(256);
  const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
  const newline = buf.subarray(0, bytesRead).indexOf(NEWLINE);
  if (bytesRead === 0) return undefined;
  if (newline < 0) return { text: buf.toString('utf8', 0, bytesRead), bytes: -1 };
  return { text: buf.toString('utf8', 0, newline), bytes: newline + 1 };
}

/** Refuses a log this server cannot read (a version-1 log is migrated before it is opened). */
export function checkVersion(path: string, header: string): void {
  const parsed = tryParse(header) as { schemaVersion?: unknown } | undefined;
  const version = typeof parsed === 'object' && parsed !== null ? parsed.schemaVersion : undefined;
  if (version !== SCHEMA_VERSION) {
    throw new Error(`play log ${path} has schema ${String(version)}; this server reads ${SCHEMA_VERSION}`);
  }
}

/**
 * Streams the file from `startAt` in big chunks and hands every line to `read`. Lines are found on
 * the newline byte and handed over as bytes, so no chunk-sized string is built. An unreadable line
 * in the middle is skipped with a warning; an unreadable or unterminated last line is a write cut
 * short by a crash, never acknowledged: it is left out of `goodBytes`, for the caller to cut off.
 */
export async function readLines(
  handle: FileHandle,
  path: string,
  logger: Logger,
  startAt: number,
  read: LineReader,
): Promise<ReadResult> {
  let goodBytes = startAt;
  let lastLineBad = false;
  // Where the last unreadable line starts in the file: a read may begin anywhere (after the
  // header, at a chunk of a parallel read, where a saved index ends), so no line number is known.
  let lastBadByte = 0;
  let skipped = 0;

  let buf = Buffer.allocUnsafe(READ_CHUNK);
  let filled = 0; // bytes of buf holding file data
  let base = startAt; // file offset of buf[0]
  for (;;) {
    if (filled === buf.length) {
      // One line longer than the buffer: make room for it.
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, filled);
      buf = bigger;
    }
    const { bytesRead } = await handle.read(buf, filled, buf.length - filled, base + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
    const view = buf.subarray(0, filled);
    let start = 0;
    for (let nl = view.indexOf(NEWLINE, start); nl >= 0; nl = view.indexOf(NEWLINE, start)) {
      const ok = nl > start && read(buf, start, nl, base + start);
      if (lastLineBad && ++skipped <= LINE_WARNINGS) {
        logger.warn('play log: skipped an unreadable line', { path, byte: lastBadByte });
      }
      if (ok) {
        lastLineBad = false;
        goodBytes = base + nl + 1;
      } else {
        lastLineBad = true;
        lastBadByte = base + start;
      }
      start = nl + 1;
    }
    buf.copy(buf, 0, start, filled);
    base += start;
    filled -= start;
  }
  if (skipped > LINE_WARNINGS) {
    logger.warn('play log: skipped more unreadable lines', { path, lines: skipped - LINE_WARNINGS });
  }
  const fileBytes = base + filled;
  const tornTail = filled > 0;
  if (tornTail || lastLineBad) {
    logger.warn('play log: skipped a torn last line', {
      path,
      // Where the caller cuts the file: the torn line, and unreadable lines just before it.
      byte: goodBytes,
      bytes: fileBytes - goodBytes,
    });
  }
  return { goodBytes, fileBytes };
}
