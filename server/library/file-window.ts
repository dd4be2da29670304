/**
 * An audio file read through a few cached windows of its bytes. The tag and duration readers ask
 * for many small pieces (a box or frame header, a page's segment table, an ID3v1 tag at the end),
 * mostly near the start and the end of the file. Each read of a file handle is a trip through
 * libuv's thread pool and a promise, which costs far more CPU than copying the bytes it brings, so a
 * miss reads a whole window and the pieces after it come from memory.
 */
import { open, type FileHandle } from 'node:fs/promises';

/** A file to read: a path (opened and closed by the reader), an open handle, or a window on one. */
export type ByteSource = string | FileHandle | FileWindow;

/** How much a miss reads when its caller does not say: most files' headers fit in one. */
export const DEFAULT_AHEAD = 128 * 1024;
/** A read this large goes straight into its caller's buffer: a copy of it would only double it. */
const DIRECT = 1024 * 1024;
/**
 * The windows kept: the start and the end of a file and two more places (an MP4 `moov` box, the
 * pages after an Ogg stream's headers), so that no reader of the file reads a place again.
 */
const KEPT = 4;

interface Window {
  start: number;
  bytes: Buffer;
  /** The buffer the bytes are in, given back for the next file's window when this one closes. */
  whole: Buffer;
}

/**
 * Window buffers that closed windows gave back, for the next files. A new buffer each time is
 * memory outside V8's heap, and enough of that makes V8 collect its whole heap, again and again
 * over a scan.
 */
const spare: Buffer[] = [];
/** A scan reads four files at once, with up to four windows each. */
const SPARE_BYTES = 24 * DEFAULT_AHEAD;
let spareBytes = 0;

/**
 * A buffer for a window of `bytes`: a spare one that fits, the last given back first, or a new one
 * of whole default windows, so that it fits the next files' windows too. A smaller piece (an MP3's
 * frames probed across the file) gets a buffer of its own size, from Node's small allocations.
 */
function bufferOf(bytes: number): Buffer {
  if (bytes < DEFAULT_AHEAD) return Buffer.allocUnsafe(bytes);
  for (let i = spare.length - 1; i >= 0; i--) {
    const buffer = spare[i]!;
    if (buffer.length < bytes) continue;
    spare.splice(i, 1);
    spareBytes -= buffer.length;
    return buffer;
  }
  return Buffer.allocUnsafe(Math.ceil(bytes / DEFAULT_AHEAD) * DEFAULT_AHEAD);
}

function giveBack(buffer: Buffer): void {
  if (buffer.length < DEFAULT_AHEAD || buffer.length > 4 * DEFAULT_AHEAD) return;
  if (spareBytes + buffer.length > SPARE_BYTES) return;
  spare.push(buffer);
  spareBytes += buffer.length;
}

const EMPTY = Buffer.alloc(0);

function copied(target: Uint8Array, bytes: Buffer): number {
  target.set(bytes);
  return bytes.length;
}

export class FileWindow {
  private windows: Window[] = [];
  /** Reads of the file so far (tests look at this). */
  reads = 0;

  private constructor(
    readonly handle: FileHandle,
    readonly size: number,
    /** Whether this window opened the file (a handle it was given stays open for its owner). */
    private readonly owned: boolean,
  ) {}

  /** A window on `file`; `size` saves an fstat when the caller already has it. */
  static async open(file: string | FileHandle, size?: number): Promise<FileWindow> {
    const handle = typeof file === 'string' ? await open(file, 'r') : file;
    try {
      return new FileWindow(handle, size ?? (await handle.stat()).size, typeof file === 'string');
    } catch (err) {
      if (typeof file === 'string') await handle.close();
      throw err;
    }
  }

  /**
   * Up to `length` bytes at `position`, fewer at the end of the file. A miss reads at least `ahead`
   * bytes: forwards from `position`, or the file's last `ahead` bytes when it is that near the end
   * (readers near the end go backwards). The bytes may be shared with later reads and are another
   * file's once this window is closed: copy what is kept, and never write to them.
   *
   * Not an async function: most reads are hits, and a hit answered without a generator of its own
   * is cheaper to run and far cheaper for V8 to optimize, which a scan's first files pay for.
   */
  read(position: number, length: number, ahead = DEFAULT_AHEAD): Promise<Buffer> {
    const hit = this.peek(position, length);
    return hit ? Promise.resolve(hit) : this.miss(position, length, ahead);
  }

  /** What read would answer, when the bytes are in a window already (read's caveats hold); else null. */
  peek(position: number, length: number): Buffer | null {
    const end = Math.min(position + length, this.size);
    if (end <= position) return EMPTY;
    for (const w of this.windows)
      if (position >= w.start && end <= w.start + w.bytes.length)
        return w.bytes.subarray(position - w.start, end - w.start);
    return null;
  }

  private async miss(position: number, length: number, ahead: number): Promise<Buffer> {
    const end = Math.min(position + length, this.size);
    const want = this.missSize(position, Math.max(end - position, ahead));
    const start = Math.max(0, Math.min(position, this.size - want));
    const bytes = Math.min(want, this.size - start);
    const whole = bufferOf(bytes);
    const filled = await this.fill(whole, start, bytes);
    const window = { start, bytes: whole.subarray(0, filled), whole };
    this.windows.unshift(window);
    if (this.windows.length > KEPT) this.windows.length = KEPT;
    return window.bytes.subarray(position - start, Math.max(position, Math.min(end, start + filled)) - start);
  }

  /**
   * How much a miss at `position` reads, `want` at least. A miss where a window ends is a reader
   * going on through the file (an Ogg stream's pages after its headers): twice that window. A miss
   * this near the end reads the rest of the file, which a window at the end may hold only part of
   * (an MP4's `moov` box there, read box by box).
   */
  private missSize(position: number, want: number): number {
    let size = want;
    for (const w of this.windows)
      if (position >= w.start && position <= w.start + w.bytes.length)
        size = Math.max(size, Math.min(2 * w.bytes.length, DIRECT));
    return this.size - position <= size + want ? Math.max(want, this.size - position) : size;
  }

  /** Reads `length` bytes at `position` into `target`; how many were there. */
  private async fill(target: Uint8Array, position: number, length: number): Promise<number> {
    let filled = 0;
    // A short read is not the end of the file: only a read of nothing is.
    while (filled < length) {
      this.reads++;
      const { bytesRead } = await this.handle.read(target, filled, length - filled, position + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled;
  }

  /**
   * Up to `length` bytes at `position`, for a caller that keeps them: from a window when they are
   * in one, else read into a buffer of their own that is not kept as a window, so that pieces
   * brought in from all over the file (an MP3's frames probed at a dozen places) leave the start and
   * the end of the file in the windows.
   */
  readApart(position: number, length: number): Promise<Buffer> {
    const hit = this.peek(position, length);
    if (hit) return Promise.resolve(hit);
    const bytes = Buffer.allocUnsafe(Math.max(0, Math.min(length, this.size - position)));
    return this.fill(bytes, position, bytes.length).then((filled) => bytes.subarray(0, filled));
  }

  /** Fills `target` with up to `length` bytes at `position`; how many (fewer at the end of the file). */
  copy(target: Uint8Array, position: number, length: number): Promise<number> {
    const hit = this.peek(position, length);
    if (hit) {
      target.set(hit);
      return Promise.resolve(hit.length);
    }
    if (length < DIRECT)
      return this.miss(position, length, DEFAULT_AHEAD).then((bytes) => copied(target, bytes));
    return this.fill(target, position, length);
  }

  /** Gives the window's buffers back for the next files and closes the file if this window opened it. */
  close(): Promise<void> {
    // A window dropped for a newer one is not given back: its bytes may still be in use until then.
    for (const { whole } of this.windows) giveBack(whole);
    this.windows = [];
    return this.owned ? this.handle.close() : Promise.resolve();
  }
}

/** Runs `use` over a window on `source`; a file it had to open is closed after. */
export async function withWindow<T>(source: ByteSource, use: (window: FileWindow) => Promise<T>): Promise<T> {
  if (source instanceof FileWindow) return use(source);
  const window = await FileWindow.open(source);
  try {
    return await use(window);
  } finally {
    await window.close();
  }
}
