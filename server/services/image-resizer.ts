import { access } from 'node:fs/promises';
import type { OutputInfo, default as Sharp } from 'sharp';
import type { Image } from './artwork-service.js';
import type { CachedImage, ImageCache, ImageCacheLimits, LoadedImage } from './image-cache.js';

/**
 * The sizes a resized picture comes in: a request is served the smallest step at least as large as
 * it asked for, and above the last step the original. Players ask for every size from 32 to 1200;
 * each distinct size was a job of its own, so a client walking through them made the server decode
 * one large picture again and again.
 */
export const SIZE_STEPS = [64, 128, 256, 512, 1024] as const;

/**
 * Pictures with more pixels than this are not decoded (sharp's own limit is 16383², a 1 MB PNG that
 * decodes to 1 GiB): they are served unresized-as-unsupported, that is, the default art is shown in
 * their place. A 6000 × 6000 scan of a sleeve still fits.
 */
export const MAX_INPUT_PIXELS = 40_000_000;

let loaded: Promise<typeof Sharp> | undefined;

/**
 * sharp, loaded at the first resize: it and libvips are among the largest parts of the server's
 * resident memory, which a server whose clients never ask for a scaled cover would carry for nothing.
 */
function loadSharp(): Promise<typeof Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    // libvips keeps recent operations and their pixels (up to 50 MB) for reuse: here every result
    // is cached as a file instead, so that memory would only hold decoded pictures nobody asks for
    // again. One libvips thread per resize: two resizes then leave the event loop a core of its own.
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loaded;
}

/** Resizes running at once, for all accounts together; the others wait their turn. */
const RESIZES_AT_ONCE = 2;

/**
 * Where resized pictures are kept: on disk, in the data folder's cache, least recently used out first
 * once they pass the byte budget. Only tiny ones are kept in memory. Loads are not limited here:
 * every load waits in the resizer's own queue.
 */
export const RESIZED_CACHE_LIMITS: ImageCacheLimits = {
  memoryBytes: 4 * 1024 * 1024,
  inMemoryMaxBytes: 16 * 1024,
  diskBytes: 256 * 1024 * 1024,
  concurrency: Number.POSITIVE_INFINITY,
};

/** The step a request for `size` gets, or null for the original. */
export function snapSize(size: number): number | null {
  return SIZE_STEPS.find((step) => step >= size) ?? null;
}

interface Job {
  resolve: (image: LoadedImage) => void;
  reject: (error: unknown) => void;
  promise: Promise<LoadedImage>;
}

/** The steps of one picture that wait together: they share one decode. */
interface Batch {
  original: Image;
  steps: Map<number, Job>;
}

/**
 * Pictures scaled to fit a square (players ask for 64–600 px covers of 3000 px originals). Every
 * request is snapped to a step; the results are kept by the original's ETag and the step in an
 * ImageCache of their own (RESIZED_CACHE_LIMITS). What is not cached waits in one queue: at most
 * RESIZES_AT_ONCE pictures are decoded at once, each once for all the steps asked of it while it
 * waited, and never two batches of one picture at a time. A picture over MAX_INPUT_PIXELS (by its
 * header, read before any decoding) or one that does not decode is unsupported: `resize` answers
 * null, and the caller serves the default art.
 */
export class ImageResizer {
  /** Batches waiting, by the original's ETag, oldest first. */
  private readonly waiting = new Map<string, Batch>();
  /** ETags of the pictures being decoded now. */
  private readonly decoding = new Set<string>();

  constructor(private readonly results: ImageCache) {}

  /**
   * The picture scaled down to fit the step of `size` (never up), in its own format (WebP → WebP,
   * PNG → PNG, others JPEG); the original above the last step; null when it cannot be resized.
   */
  async resize(original: Image, size: number): Promise<Image | null> {
    const step = snapSize(size);
    if (step === null) return original;
    const resized = await this.results.get(`${original.etag}\0${step}`, () => this.enqueue(original, step));
    return resized && isImage(resized) ? resized : null;
  }

  /** Removes the cache's folder (the server is stopping). */
  close(): Promise<void> {
    return this.results.close();
  }

  private enqueue(original: Image, step: number): Promise<LoadedImage> {
    let batch = this.waiting.get(original.etag);
    if (!batch) {
      batch = { original, steps: new Map() };
      this.waiting.set(original.etag, batch);
    }
    let job = batch.steps.get(step);
    if (!job) {
      let resolve!: Job['resolve'];
      let reject!: Job['reject'];
      const promise = new Promise<LoadedImage>((ok, fail) => {
        resolve = ok;
        reject = fail;
      });
      job = { resolve, reject, promise };
      batch.steps.set(step, job);
    }
    this.pump();
    return job.promise;
  }

  private pump(): void {
    for (const [etag, batch] of this.waiting) {
      if (this.decoding.size >= RESIZES_AT_ONCE) return;
      if (this.decoding.has(etag)) continue;
      this.waiting.delete(etag);
      this.decoding.add(etag);
      void this.run(batch).finally(() => {
        this.decoding.delete(etag);
        this.pump();
      });
    }
  }

  private async run({ original, steps }: Batch): Promise<void> {
    try {
      const results = await scaleToSteps(original, [...steps.keys()]);
      for (const [step, job] of steps) job.resolve(results.get(step)!);
    } catch (error) {
      for (const job of steps.values()) job.reject(error);
    }
  }
}

const UNSUPPORTED: LoadedImage = { mime: null, data: new Uint8Array(0) };

/**
 * Decodes the picture once, scaled to the largest step asked for, and makes every step from those
 * pixels. Unsupported (too many pixels, or not decodable) gives UNSUPPORTED for every step.
 */
async function scaleToSteps(original: Image, steps: number[]): Promise<Map<number, LoadedImage>> {
  const sharp = await loadSharp();
  const input = original.bytes ?? original.file!;
  const unsupported = () => new Map(steps.map((step) => [step, UNSUPPORTED]));
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' } as const;
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    // The header alone: a picture over the limit is refused before a pixel of it is decoded.
    const { width, height, pageHeight } = await sharp(input, options).metadata();
    if (!width || !height || width * (pageHeight ?? height) > MAX_INPUT_PIXELS) return unsupported();
    const largest = Math.max(...steps);
    pixels = await sharp(input, options)
      .rotate()
      .resize(largest, largest, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    // The cache file of the original went away meanwhile: a fault of the moment, not of the picture.
    if (
      original.file &&
      !(await access(original.file).then(
        () => true,
        () => false,
      ))
    )
      throw error;
    return unsupported();
  }
  const { width, height, channels } = pixels.info;
  const results = new Map<number, LoadedImage>();
  for (const step of steps) {
    const pipeline = sharp(pixels.data, { raw: { width, height, channels } }).resize(step, step, {
      fit: 'inside',
      withoutEnlargement: true,
    });
    const data =
      original.mime === 'image/png'
        ? await pipeline.png().toBuffer()
        : original.mime === 'image/webp'
          ? await pipeline.webp().toBuffer()
          : await pipeline.jpeg({ quality: 85 }).toBuffer();
    const mime =
      original.mime === 'image/png' || original.mime === 'image/webp' ? original.mime : 'image/jpeg';
    results.set(step, { mime, data });
  }
  return results;
}

const isImage = (image: CachedImage): image is Image => image.mime !== null;
