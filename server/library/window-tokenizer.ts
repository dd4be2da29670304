/**
 * music-metadata's tokenizer over a file's window (file-window.ts): its parsers ask for a few bytes
 * at a time, each a read of the file otherwise. The handle is the window's owner's to close.
 */
import {
  EndOfStreamError,
  FileTokenizer,
  type IGetToken,
  type IReadChunkOptions,
  type IToken,
} from 'strtok3';
import type { FileWindow } from './file-window.js';

/**
 * The MP4 sample-size table (`stsz`): its version and flags (4 bytes), the size every sample has or
 * 0 (4), the number of entries (4), then one 32-bit size a sample. music-metadata decodes it entry by
 * entry through a new DataView each, which for a few minutes of AAC (~13,000 samples) costs more
 * than the rest of the file. Its parser only adds the sizes up (for the bit rate), so the same
 * record is built here with Node's native readers.
 */
const STSZ = 'StszAtom';
const STSZ_HEADER = 12;

interface SampleSizes {
  version: number;
  flags: number;
  sampleSize: number;
  numberOfEntries: number;
  entries: Int32Array;
}

/**
 * The table's sizes, byte-swapped natively into an Int32Array rather than read one by one in a loop
 * of JavaScript, which V8 soon compiles with its optimizing compiler, at a cost that the first files
 * of a scan pay. music-metadata only adds the sizes up and reads them by index, which a typed array
 * answers as an array does.
 */
function sampleSizes(bytes: Buffer): SampleSizes | null {
  const count = bytes.readInt32BE(8);
  // A table whose length does not match its count is left to music-metadata, which refuses it.
  if (count < 0 || count * 4 !== bytes.length - STSZ_HEADER) return null;
  const table = new Uint8Array(count * 4);
  table.set(bytes.subarray(STSZ_HEADER));
  Buffer.from(table.buffer).swap32();
  return {
    version: bytes.readInt8(0),
    flags: bytes.readIntBE(1, 3),
    sampleSize: bytes.readInt32BE(4),
    numberOfEntries: count,
    entries: new Int32Array(table.buffer),
  };
}

/** A token longer than this is read the long way, through strtok3's checks. */
const HIT_TOKEN_MAX = 64 * 1024;

/** `get`'s value as a promise, or its error as a rejection (as from an async function). */
function settle<T>(get: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(get()));
}

/**
 * Most of a parser's asks are for bytes already in the window. Those are answered by plain functions
 * that return a settled promise, not async ones: V8 compiles and optimizes an async function at a
 * far greater cost (its generator, and everything inlined into it), a cost the first files of every
 * scan pay; misses go the long way, through strtok3's FileTokenizer.
 */
export class WindowTokenizer extends FileTokenizer {
  static of(window: FileWindow, file: string): WindowTokenizer {
    return new WindowTokenizer(window, file);
  }

  private constructor(
    private readonly window: FileWindow,
    file: string,
  ) {
    super(window.handle, { fileInfo: { path: file, size: window.size } });
  }

  /** A copy of the `length` bytes at `position` when all are in the window; else null. */
  private hit(length: number, position: number): Uint8Array | null {
    if (!Number.isSafeInteger(position) || position < 0 || !Number.isSafeInteger(length) || length < 0)
      return null;
    if (length > HIT_TOKEN_MAX || position + length > this.window.size) return null;
    const bytes = this.window.peek(position, length);
    return bytes ? new Uint8Array(bytes) : null;
  }

  override readToken<T>(token: IGetToken<T>, position: number = this.position): Promise<T> {
    if (token.constructor.name === STSZ && token.len >= STSZ_HEADER)
      return this.readSampleSizes(token, position);
    const bytes = this.hit(token.len, position);
    if (!bytes) return super.readToken(token, position);
    this.position = position + token.len;
    return settle(() => token.get(bytes, 0));
  }

  override peekToken<T>(token: IGetToken<T>, position: number = this.position): Promise<T> {
    const bytes = this.hit(token.len, position);
    if (!bytes) return super.peekToken(token, position);
    return settle(() => token.get(bytes, 0));
  }

  override readNumber(token: IToken<number>): Promise<number> {
    const bytes = this.hit(token.len, this.position);
    if (!bytes) return super.readNumber(token);
    this.position += token.len;
    return settle(() => token.get(bytes, 0));
  }

  override peekNumber(token: IToken<number>): Promise<number> {
    const bytes = this.hit(token.len, this.position);
    if (!bytes) return super.peekNumber(token);
    return settle(() => token.get(bytes, 0));
  }

  private async readSampleSizes<T>(token: IGetToken<T>, position: number): Promise<T> {
    const bytes = Buffer.alloc(token.len);
    if ((await this.readBuffer(bytes, { position })) < token.len) throw new EndOfStreamError();
    return (sampleSizes(bytes) as T | null) ?? token.get(bytes, 0);
  }

  override readBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    return this.readAt(target, options, true);
  }

  override peekBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    return this.readAt(target, options, false);
  }

  private readAt(
    target: Uint8Array,
    options: IReadChunkOptions | undefined,
    advance: boolean,
  ): Promise<number> {
    let normalized;
    try {
      normalized = this.normalizeOptions(target, options);
    } catch (err) {
      return settle(() => {
        throw err;
      });
    }
    const { length, position } = normalized;
    const mayBeLess = normalized.mayBeLess === true;
    if (advance) this.position = position;
    const hit = this.window.peek(position, length);
    if (!hit) return this.missed(target, position, length, mayBeLess, advance);
    target.set(hit);
    if (advance) this.position += hit.length;
    if (!mayBeLess && hit.length < length) return Promise.reject(new EndOfStreamError());
    return Promise.resolve(hit.length);
  }

  private async missed(
    target: Uint8Array,
    position: number,
    length: number,
    mayBeLess: boolean,
    advance: boolean,
  ): Promise<number> {
    const read = await this.window.copy(target, position, length);
    if (advance) this.position += read;
    if (!mayBeLess && read < length) throw new EndOfStreamError();
    return read;
  }
}
