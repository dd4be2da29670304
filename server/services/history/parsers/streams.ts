import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** The most text one entry of an import may have; longer is a refused entry, never a huge string. */
export const MAX_ENTRY_CHARS = 64 * 1024;

/**
 * How far a reader is through its file, kept current as it reads: the file's size, and the bytes
 * before the entry it last gave (about, for a JSON array). An import estimates from it how many
 * listens are still to come.
 */
export interface ReadProgress {
  size: number;
  read: number;
}

/**
 * Bytes a line may have and still be read: a line of MAX_ENTRY_CHARS UTF-16 units is at most three
 * bytes a unit in UTF-8, so no line within the limit is cut; a longer one is certainly too long.
 */
const MAX_LINE_BYTES = 3 * MAX_ENTRY_CHARS;
/** How much is read from the file at a time. */
const READ_BYTES = 64 * 1024;
/**
 * Bytes of a JSON array decoded at a time: at 32 KiB even a piece of two-byte characters stays in
 * V8's young generation, and dies there (docs/BENCHMARKS.md has the import's memory either way).
 */
const TEXT_BYTES = 32 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/**
 * The lines of a stream of bytes (a file, an entry of a ZIP), split at LF, CRLF or a lone CR as
 * readline splits them; null for a line too long to keep (over MAX_LINE_BYTES), which is dropped as
 * it is read. The bytes are read into one buffer, reused from read to read, and each line is
 * decoded on its own, so a 300 MB export is never whole in memory. (readline over a decoding stream
 * makes a string of every chunk read, a megabyte each: too large for V8's young generation, so a
 * large import leaves them all for full collections to free.)
 */
export async function* byteLines(
  source: ByteReader,
  progress: { read: number } = { read: 0 },
): AsyncGenerator<string | null> {
  const buf = Buffer.allocUnsafe(MAX_LINE_BYTES + READ_BYTES);
  // Bytes [start, end) are read and not yet handed out, buf[0] being byte `base` of the stream;
  // `tooLong`: dropping a line's bytes to its end.
  let base = 0;
  let start = 0;
  let end = 0;
  let tooLong = false;
  let first = true;
  const decode = (from: number, to: number): string | null => {
    if (tooLong || to - from > MAX_LINE_BYTES) return null;
    const line = buf.toString('utf8', from, to);
    return first && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
  };
  for (;;) {
    if (start > 0) {
      buf.copyWithin(0, start, end);
      base += start;
      end -= start;
      start = 0;
    }
    const bytesRead = await source.read(buf, end, Math.min(READ_BYTES, buf.length - end));
    const eof = bytesRead === 0;
    end += bytesRead;
    // The next LF and CR at or after `start` (memchr-fast: a CR is rare, so it is looked for once
    // per read, not per line); `end` when there is none.
    let lf = lineEnd(buf, LF, start, end);
    let cr = lineEnd(buf, CR, start, end);
    for (;;) {
      const at = Math.min(lf, cr);
      // A CR last in the buffer may be the first half of a CRLF: wait for the next byte.
      if (at === end || (at === cr && at + 1 === end && !eof)) break;
      const line = decode(start, at);
      start = at === cr && buf[at + 1] === LF ? at + 2 : at + 1;
      tooLong = false;
      first = false;
      if (lf < start) lf = lineEnd(buf, LF, start, end);
      if (cr < start) cr = lineEnd(buf, CR, start, end);
      progress.read = base + start;
      yield line;
    }
    if (eof) {
      progress.read = base + end;
      if (start < end || tooLong) yield decode(start, end);
      return;
    }
    if (end - start > MAX_LINE_BYTES) {
      // No line end within the limit: drop what is read of this line, and the rest as it comes.
      tooLong = true;
      start = end;
    }
  }
}

/** A file's lines (see byteLines), with the file's size in `progress`. */
export async function* fileLines(
  path: string,
  progress: ReadProgress = { size: 0, read: 0 },
): AsyncGenerator<string | null> {
  yield* fromFile(path, progress, byteLines);
}

/** What `parse` makes of a file's bytes, with the file's size in `progress`; the file is closed after. */
async function* fromFile<T>(
  path: string,
  progress: ReadProgress,
  parse: (source: ByteReader, progress: ReadProgress) => AsyncGenerator<T>,
): AsyncGenerator<T> {
  const handle = await open(path, 'r');
  try {
    progress.size = (await handle.stat()).size;
    yield* parse(fileReader(handle), progress);
  } finally {
    await handle.close();
  }
}

/**
 * Where bytes are read from: `read` fills `into` from `at` with up to `length` bytes and answers how
 * many, 0 at the end. Parsers read through it into buffers of their own, reused from read to read,
 * so that reading a file allocates nothing per read.
 */
export interface ByteReader {
  read(into: Buffer, at: number, length: number): Promise<number>;
}

/** An open file, read from where it was last read. */
export function fileReader(handle: FileHandle): ByteReader {
  return { read: async (into, at, length) => (await handle.read(into, at, length, null)).bytesRead };
}

/** A stream of chunks (an entry of a ZIP as it is inflated), copied out as asked. */
export function streamReader(chunks: AsyncIterable<Buffer>): ByteReader {
  const source = chunks[Symbol.asyncIterator]();
  let pending: Buffer | null = null;
  let pendingAt = 0;
  return {
    async read(into, at, length) {
      while (pending === null || pendingAt >= pending.length) {
        const next = await source.next();
        if (next.done) return 0;
        pending = next.value;
        pendingAt = 0;
      }
      const copied = pending.copy(into, at, pendingAt, Math.min(pending.length, pendingAt + length));
      pendingAt += copied;
      return copied;
    },
  };
}

/** The first `byte` in buf[from, end), else `end` (bytes after `end` are left from earlier reads). */
function lineEnd(buf: Buffer, byte: number, from: number, end: number): number {
  const at = buf.indexOf(byte, from);
  return at < 0 || at > end ? end : at;
}

/** One element of a streamed JSON array: its text, or a note that it was too long (and skipped). */
export type ArrayItem = { text: string } | { tooLong: true };

export class NotAJsonArrayError extends Error {}

/**
 * The top-level elements of a JSON array file, each as its own text, read incrementally: a small
 * state machine over the characters (depth, inside a string, after a backslash) that cuts the
 * array at its top-level commas. Each element is then parsed on its own, so one bad element is one
 * refused entry and memory holds one element at a time. (A streaming JSON dependency would do the
 * same with more code; this is all the imports need.)
 */
export async function* jsonArrayItems(
  path: string,
  progress: ReadProgress = { size: 0, read: 0 },
): AsyncGenerator<ArrayItem> {
  yield* fromFile(path, progress, byteJsonArrayItems);
}

/**
 * Text of at most TEXT_BYTES bytes a piece, read into one reused buffer: V8 makes a string of
 * 128 KiB or more outside its young generation (see byteLines).
 */
async function* decoded(source: ByteReader): AsyncGenerator<{ text: string; bytes: number }> {
  const decoder = new StringDecoder('utf8');
  const buf = Buffer.allocUnsafe(TEXT_BYTES);
  for (;;) {
    const bytes = await source.read(buf, 0, TEXT_BYTES);
    if (bytes === 0) break;
    yield { text: decoder.write(buf.subarray(0, bytes)), bytes };
  }
  const rest = decoder.end();
  if (rest) yield { text: rest, bytes: 0 };
}

/** The top-level elements of a JSON array read from a stream of bytes (see jsonArrayItems). */
export async function* byteJsonArrayItems(
  source: ByteReader,
  progress: { read: number } = { read: 0 },
): AsyncGenerator<ArrayItem> {
  let bytes = 0;
  let opened = false;
  let closed = false;
  let depth = 0; // inside the current element: nesting of {} and []
  let inElement = false;
  let inString = false;
  let escaped = false;
  let parts: string[] = [];
  let length = 0;
  let tooLong = false;
  const keep = (text: string) => {
    if (tooLong) return;
    length += text.length;
    if (length > MAX_ENTRY_CHARS) {
      tooLong = true;
      parts = [];
    } else parts.push(text);
  };
  const finish = (): ArrayItem => {
    const item: ArrayItem = tooLong ? { tooLong: true } : { text: parts.join('') };
    parts = [];
    length = 0;
    tooLong = false;
    inElement = false;
    return item;
  };
  for await (const piece of decoded(source)) {
    const chunk = piece.text;
    const out: ArrayItem[] = [];
    // Where each element of `out` ends in the chunk, and where the chunk starts in the stream (in
    // characters from there, about bytes).
    const ends: number[] = [];
    const chunkAt = bytes;
    bytes += piece.bytes;
    let start = inElement ? 0 : -1;
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk[i]!;
      if (closed) {
        if (!/\s/u.test(c)) throw new NotAJsonArrayError('Text after the end of the JSON array');
        continue;
      }
      if (!opened) {
        if (c === '[') opened = true;
        else if (!/[\s\uFEFF]/u.test(c)) throw new NotAJsonArrayError('The file is not a JSON array');
        continue;
      }
      if (inElement) {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === '\\') escaped = true;
          else if (c === '"') inString = false;
          continue;
        }
        if (c === '"') inString = true;
        else if (c === '{' || c === '[') depth += 1;
        else if ((c === '}' || c === ']') && depth > 0) depth -= 1;
        else if ((c === ',' || c === ']') && depth === 0) {
          keep(chunk.slice(start, i));
          out.push(finish());
          ends.push(i);
          start = -1;
          if (c === ']') closed = true;
        }
        continue;
      }
      if (/\s/u.test(c) || c === ',') continue;
      if (c === ']') {
        closed = true;
        continue;
      }
      inElement = true;
      start = i;
      depth = 0;
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth = 1;
    }
    if (inElement && start >= 0) keep(chunk.slice(start));
    for (let k = 0; k < out.length; k += 1) {
      progress.read = Math.min(bytes, chunkAt + ends[k]!);
      yield out[k]!;
    }
  }
  if (!opened || !closed) throw new NotAJsonArrayError('The JSON array is not closed');
}
