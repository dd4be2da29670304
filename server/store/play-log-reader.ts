import type { FileHandle } from 'node:fs/promises';
import type { Logger } from '../logger.js';
import type { PlayLogEntry } from './play-log.js';
import { decodeLine, SCHEMA_VERSION, tryParse } from './play-log-codec.js';

/** Big reads: the log of a busy household reaches hundreds of MB, and each read is a syscall. */
const READ_CHUNK = 8 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface ReadResult {
  entries: number;
  /** Where the last whole, parseable line ends. */
  goodBytes: number;
  fileBytes: number;
}

/**
 * Streams the file in big chunks and hands every entry to `onEntry`. Lines are found on the newline
 * byte and each is decoded on its own, so no chunk-sized string is built. (At 1M lines this costs
 * ~5 s here; a normal start skips it by loading the saved index, see play-index-snapshot.ts.)
 */
export async function readLines(
  handle: FileHandle,
  path: string,
  options: { logger: Logger; onEntry: (entry: PlayLogEntry) => void },
  startAt: number,
): Promise<ReadResult> {
  const { logger, onEntry } = options;
  let entries = 0;
  let lineNo = 0;
  let goodBytes = startAt;
  let lastLineBad = false;
  let lastBadLine = 0;
  const warnMiddle = (line: number) => logger.warn('play log: skipped an unreadable line', { path, line });

  const take = (buf: Buffer, start: number, end: number, endOffset: number) => {
    lineNo += 1;
    if (lineNo === 1 && startAt === 0 && buf[start] === 0x7b && buf[start + 2] === 0x73 /* {"s */) {
      const header = tryParse(buf.toString('utf8', start, end)) as { schemaVersion?: unknown } | undefined;
      if (header && 'schemaVersion' in header) {
        if (header.schemaVersion !== SCHEMA_VERSION) {
          throw new Error(
            `play log ${path} has schema ${String(header.schemaVersion)}; this server reads ${SCHEMA_VERSION}`,
          );
        }
        goodBytes = endOffset;
        return;
      }
    }
    const entry = end > start ? decodeLine(buf.toString('utf8', start, end)) : undefined;
    if (lastLineBad) warnMiddle(lastBadLine);
    if (!entry) {
      lastLineBad = true;
      lastBadLine = lineNo;
      return;
    }
    lastLineBad = false;
    goodBytes = endOffset;
    entries += 1;
    onEntry(entry);
  };

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
      take(buf, start, nl, base + nl + 1);
      start = nl + 1;
    }
    buf.copy(buf, 0, start, filled);
    base += start;
    filled -= start;
  }
  const fileBytes = base + filled;
  const tornTail = filled > 0;
  if (tornTail || lastLineBad) {
    // The last line is unterminated or unreadable: a write cut short by a crash. It was never
    // acknowledged, so it is dropped (and cut off the file by the caller).
    logger.warn('play log: skipped a torn last line', {
      path,
      line: tornTail ? lineNo + 1 : lastBadLine,
      bytes: fileBytes - goodBytes,
    });
  }
  return { entries, goodBytes, fileBytes };
}
