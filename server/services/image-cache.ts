import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What a loader found: the bytes and their sniffed type (null: not an image the server serves). */
export interface LoadedImage {
  mime: string | null;
  data: Uint8Array;
}

/**
 * A decoded image as the server keeps it: small ones in memory, large ones in a file of their own
 * that each response streams, so a slow client holds a 64 KiB buffer, never the whole picture.
 */
export interface CachedImage {
  /** Null when the bytes are not an image the server serves (nothing is kept of them). */
  mime: string | null;
  etag: string;
  size: number;
  bytes: Buffer | null;
  file: string | null;
}

export interface ImageCacheLimits {
  /** Bytes of images kept in memory, all together. */
  memoryBytes: number;
  /** Images larger than this go to a file instead of memory. */
  inMemoryMaxBytes: number;
  /** Bytes of spilled files, all together. */
  diskBytes: number;
  /** Loads (audio parses, file reads) running at once; the others wait their turn. */
  concurrency: number;
}

export const DEFAULT_IMAGE_CACHE_LIMITS: ImageCacheLimits = {
  memoryBytes: 32 * 1024 * 1024,
  inMemoryMaxBytes: 1024 * 1024,
  diskBytes: 512 * 1024 * 1024,
  concurrency: 2,
};

interface Entry {
  image: CachedImage | null;
  /** What the entry costs where it is kept (every entry some memory, so none stays forever). */
  memory: number;
  disk: number;
}

/**
 * The cache key of image `part` (a picture position) of a file that may change in place, such as an
 * audio file: its path, modification time and size. Rejects with the errno error (ENOENT) of `stat`.
 */
export async function fileKey(file: string, part: string | number): Promise<string> {
  const { mtimeMs, size } = await stat(file);
  return `${path.resolve(file)}\0${mtimeMs}\0${size}\0${part}`;
}

/** The validator of an image: a hash of its bytes, so a copy anywhere stays valid. */
export const etagOf = (bytes: Uint8Array): string =>
  `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/** Roughly what an entry without bytes costs: its key, record and map slot. */
const ENTRY_OVERHEAD = 512;

/**
 * Images decoded once and shared. Without it, every request for a track picture parses the audio
 * file, copies the picture and hashes it, so parallel requests for one large picture hold a copy
 * each (docs/API.md, Track pictures and memory). Here:
 * - the caller's key names the bytes: file, modification time, size and position for pictures in
 *   audio files (`fileKey`), so an edited file is read anew; the file name for stored images, which
 *   are never rewritten in place;
 * - concurrent requests for the same image share one load (the in-flight map);
 * - at most `concurrency` loads run at once, whatever is asked for;
 * - memory and spill folder are bounded by bytes, least recently used first out.
 * The spill folder belongs to this cache alone: it is emptied on first use and by `close`.
 */
export class ImageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<CachedImage | null>>();
  private readonly waiting: Array<() => void> = [];
  private running = 0;
  private memory = 0;
  private disk = 0;
  private spillReady: Promise<void> | undefined;

  constructor(
    private readonly spillDir: string,
    private readonly limits: ImageCacheLimits = DEFAULT_IMAGE_CACHE_LIMITS,
  ) {}

  /**
   * The image under `key`, loaded by `load` when not cached; null when `load` finds none. The key
   * must change whenever the bytes may have: see `fileKey`.
   */
  async get(key: string, load: () => Promise<LoadedImage | undefined>): Promise<CachedImage | null> {
    const cached = this.entries.get(key);
    if (cached) {
      // Most recently used goes last.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.image;
    }
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.limited(() => this.decode(load)).then((entry) => {
        this.keep(key, entry);
        return entry.image;
      });
      const settled = pending.finally(() => this.loading.delete(key));
      settled.catch(() => undefined);
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** Removes the spill folder (the server is stopping). */
  async close(): Promise<void> {
    this.spillReady = undefined;
    this.entries.clear();
    this.memory = 0;
    this.disk = 0;
    await rm(this.spillDir, { recursive: true, force: true });
  }

  private async decode(load: () => Promise<LoadedImage | undefined>): Promise<Entry> {
    const loaded = await load();
    if (!loaded) return { image: null, memory: ENTRY_OVERHEAD, disk: 0 };
    const { mime, data } = loaded;
    if (mime === null) {
      const image = { mime, etag: '', size: data.length, bytes: null, file: null };
      return { image, memory: ENTRY_OVERHEAD, disk: 0 };
    }
    const etag = etagOf(data);
    if (data.length <= this.limits.inMemoryMaxBytes) {
      // A copy: `data` may be a view into the whole tag, which must not stay alive with it.
      const bytes = Buffer.from(data);
      const image = { mime, etag, size: data.length, bytes, file: null };
      return { image, memory: ENTRY_OVERHEAD + data.length, disk: 0 };
    }
    this.spillReady ??= (async () => {
      await rm(this.spillDir, { recursive: true, force: true });
      await mkdir(this.spillDir, { recursive: true });
    })().catch((error: unknown) => {
      this.spillReady = undefined; // the next large image tries again
      throw error;
    });
    await this.spillReady;
    const file = path.join(this.spillDir, `${randomUUID()}.bin`);
    await writeFile(file, data);
    const image = { mime, etag, size: data.length, bytes: null, file };
    return { image, memory: ENTRY_OVERHEAD, disk: data.length };
  }

  private keep(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    this.memory += entry.memory;
    this.disk += entry.disk;
    for (const [oldKey, old] of this.entries) {
      if (this.memory <= this.limits.memoryBytes && this.disk <= this.limits.diskBytes) break;
      const over =
        this.memory > this.limits.memoryBytes || (old.disk > 0 && this.disk > this.limits.diskBytes);
      if (!over) continue;
      this.entries.delete(oldKey);
      this.memory -= old.memory;
      this.disk -= old.disk;
      // A response still streaming it keeps reading (POSIX); elsewhere the next start removes it.
      if (old.image?.file) void rm(old.image.file, { force: true }).catch(() => undefined);
    }
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter; `running` stays as it is.
      if (next) next();
      else this.running--;
    }
  }
}
