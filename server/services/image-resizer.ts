import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { Image } from './artwork-service.js';

/** The largest edge a resized picture may ask for; beyond it the original is served. */
export const MAX_RESIZE_EDGE = 2048;
/** The resized pictures kept in memory, in bytes. */
const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Pictures scaled to fit a square (players ask for 64–600 px covers of 3000 px originals), kept in
 * a bounded in-memory cache keyed by the original's ETag and the size: a page of covers asks for
 * the same few dozen pictures again and again, and scaling costs milliseconds each while a cached
 * copy costs nothing. The cache lives in memory rather than in the data folder because it is
 * cheap to rebuild, small (32 MiB at most, the least recently used dropped first) and would
 * otherwise need its own clean-up when artwork changes; a changed picture has a new ETag anyway.
 */
export class ImageResizer {
  private readonly cache = new Map<string, Image>();
  private cachedBytes = 0;
  private readonly pending = new Map<string, Promise<Image>>();

  /** The picture scaled down to fit `size` × `size` (never up), in its own format (WebP → WebP). */
  async resize(original: Image, size: number): Promise<Image> {
    if (size <= 0 || size > MAX_RESIZE_EDGE) return original;
    const key = `${original.etag}:${size}`;
    const cached = this.cache.get(key);
    if (cached) {
      // Re-inserted: Map order is the recency order.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const running = this.pending.get(key);
    if (running) return running;
    const work = this.scale(original, size).finally(() => this.pending.delete(key));
    this.pending.set(key, work);
    const image = await work;
    this.remember(key, image);
    return image;
  }

  private async scale(original: Image, size: number): Promise<Image> {
    const bytes = original.bytes ?? (await readFile(original.file!));
    const pipeline = sharp(bytes, { failOn: 'error' }).rotate().resize(size, size, {
      fit: 'inside',
      withoutEnlargement: true,
    });
    const { data, info } = await (
      original.mime === 'image/png'
        ? pipeline.png()
        : original.mime === 'image/webp'
          ? pipeline.webp()
          : pipeline.jpeg({ quality: 85 })
    ).toBuffer({ resolveWithObject: true });
    const mime = `image/${info.format === 'jpeg' ? 'jpeg' : info.format}`;
    return {
      bytes: data,
      file: null,
      size: data.length,
      mime,
      etag: `${original.etag.slice(0, -1)}-${size}"`,
    };
  }

  private remember(key: string, image: Image): void {
    if (image.size > CACHE_BYTES / 4) return;
    this.cache.set(key, image);
    this.cachedBytes += image.size;
    for (const [oldest, entry] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES) break;
      this.cache.delete(oldest);
      this.cachedBytes -= entry.size;
    }
  }
}
