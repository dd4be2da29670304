/**
 * music-metadata's tokenizer over a file's window (file-window.ts): its parsers ask for a few bytes
 * at a time, each a read of the file otherwise. The handle is the window's owner's to close.
 */
import { EndOfStreamError, FileTokenizer, type IGetToken, type IReadChunkOptions } from 'strtok3';
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
  entries: number[];
}

function sampleSizes(bytes: Buffer): SampleSizes | null {
  const count = bytes.readInt32BE(8);
  // A table whose length does not match its count is left to music-metadata, which refuses it.
  if (count < 0 || count * 4 !== bytes.length - STSZ_HEADER) return null;
  const entries = new Array<number>(count);
  for (let i = 0; i < count; i++) entries[i] = bytes.readInt32BE(STSZ_HEADER + i * 4);
  return {
    version: bytes.readInt8(0),
    flags: bytes.readIntBE(1, 3),
    sampleSize: bytes.readInt32BE(4),
    numberOfEntries: count,
    entries,
  };
}

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

  override async readToken<T>(token: IGetToken<T>, position: number = this.position): Promise<T> {
    if (token.constructor.name !== STSZ || token.len < STSZ_HEADER) return super.readToken(token, position);
    const bytes = Buffer.alloc(token.len);
    if ((await this.readBuffer(bytes, { position })) < token.len) throw new EndOfStreamError();
    return (sampleSizes(bytes) as T | null) ?? token.get(bytes, 0);
  }

  override async readBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const { length, position, mayBeLess } = this.normalizeOptions(target, options);
    this.position = position;
    const read = await this.window.copy(target, position, length);
    this.position += read;
    if (!mayBeLess && read < length) throw new EndOfStreamError();
    return read;
  }

  override async peekBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const { length, position, mayBeLess } = this.normalizeOptions(target, options);
    const read = await this.window.copy(target, position, length);
    if (!mayBeLess && read < length) throw new EndOfStreamError();
    return read;
  }
}
