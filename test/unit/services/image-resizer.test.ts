import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type SharpOptions } from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Image } from '../../../server/services/artwork-service.js';
import { etagOf, ImageCache } from '../../../server/services/image-cache.js';
import {
  ImageResizer,
  MAX_INPUT_PIXELS,
  RESIZED_CACHE_LIMITS,
  snapSize,
} from '../../../server/services/image-resizer.js';

/** Every decode of an original's pixels (a `raw()` output of an encoded input) is counted here. */
const decodes = vi.hoisted(() => ({ count: 0 }));
vi.mock('sharp', async (importOriginal) => {
  const actual = (await importOriginal<{ default: typeof sharp }>()).default;
  const counting = (input: Buffer | string, options?: SharpOptions) => {
    const image = actual(input, options);
    if (!options?.raw) {
      const raw = image.raw.bind(image);
      image.raw = (...args: Parameters<typeof raw>) => {
        decodes.count += 1;
        return raw(...args);
      };
    }
    return image;
  };
  const settings = {
    cache: (...args: Parameters<typeof actual.cache>) => actual.cache(...args),
    concurrency: (...args: Parameters<typeof actual.concurrency>) => actual.concurrency(...args),
  };
  return { default: Object.assign(counting, settings) };
});

let dir: string;
let resizer: ImageResizer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'melon-resizer-'));
  resizer = new ImageResizer(new ImageCache(join(dir, 'resized'), RESIZED_CACHE_LIMITS));
  decodes.count = 0;
});
afterEach(async () => {
  await resizer.close();
  await rm(dir, { recursive: true, force: true });
});

async function picture(width: number, height: number, mime = 'image/png'): Promise<Image> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  const bytes = mime === 'image/png' ? await base.png().toBuffer() : await base.jpeg().toBuffer();
  return { mime, etag: etagOf(bytes), size: bytes.length, bytes, file: null };
}

const dimensions = async (image: Image | null) => {
  const meta = await sharp(image!.bytes ?? (await readFile(image!.file!))).metadata();
  return [meta.width, meta.height];
};

describe('snapSize', () => {
  it('serves the smallest step at least as large as asked, and the original above 1024', () => {
    expect([1, 64, 65, 128, 200, 300, 512, 600, 1024].map(snapSize)).toEqual([
      64, 64, 128, 128, 256, 512, 512, 1024, 1024,
    ]);
    expect(snapSize(1025)).toBeNull();
    expect(snapSize(100_000)).toBeNull();
  });
});

describe('ImageResizer', () => {
  it('scales a picture to fit its step, in its own format, never up', async () => {
    const cover = await picture(1200, 600, 'image/jpeg');
    const small = await resizer.resize(cover, 100);
    expect(small!.mime).toBe('image/jpeg');
    expect(await dimensions(small)).toEqual([128, 64]);
    expect(await resizer.resize(cover, 5000)).toBe(cover);
    const tiny = await picture(40, 40);
    expect(await dimensions(await resizer.resize(tiny, 500))).toEqual([40, 40]);
  });

  it('a listener asking for 96 sizes of one picture at once costs at most two decodes, then none', async () => {
    const cover = await picture(1500, 1500);
    const sizes = Array.from({ length: 96 }, (_, i) => 8 + i * 11);
    const answers = await Promise.all(sizes.map((size) => resizer.resize(cover, size)));
    // The first request starts at once; every step asked while it ran waits in one batch.
    expect(decodes.count).toBeLessThanOrEqual(2);
    for (const [i, size] of sizes.entries()) {
      const step = snapSize(size);
      if (step === null) expect(answers[i]).toBe(cover);
      else expect(await dimensions(answers[i]!)).toEqual([step, step]);
    }
    const before = decodes.count;
    await Promise.all(sizes.map((size) => resizer.resize(cover, size)));
    expect(decodes.count).toBe(before);
  });

  it('keeps the results on disk, in its own folder', async () => {
    // Noise: its 1024 px copy is far over what the cache keeps in memory.
    const pixels = randomBytes(1500 * 1500 * 3);
    const bytes = await sharp(pixels, { raw: { width: 1500, height: 1500, channels: 3 } })
      .png()
      .toBuffer();
    const cover = { mime: 'image/png', etag: etagOf(bytes), size: bytes.length, bytes, file: null };
    await resizer.resize(cover, 1024);
    expect(await readdir(join(dir, 'resized'))).toHaveLength(1);
  });

  it('does not decode a picture whose header names more pixels than the limit, nor a broken one', async () => {
    // A PNG signature and header of 16383 × 16383 and nothing decodable after: the header decides.
    const bomb = Buffer.alloc(64);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bomb, 0);
    bomb.writeUInt32BE(13, 8);
    bomb.write('IHDR', 12, 'latin1');
    bomb.writeUInt32BE(16383, 16);
    bomb.writeUInt32BE(16383, 20);
    bomb.writeUInt8(8, 24);
    bomb.writeUInt8(6, 25);
    expect(16383 * 16383).toBeGreaterThan(MAX_INPUT_PIXELS);
    const image = { mime: 'image/png', etag: etagOf(bomb), size: bomb.length, bytes: bomb, file: null };
    expect(await resizer.resize(image, 300)).toBeNull();
    expect(decodes.count).toBe(0);
    const broken = Buffer.concat([(await picture(300, 300)).bytes!.subarray(0, 200), Buffer.alloc(300)]);
    const damaged = {
      mime: 'image/png',
      etag: etagOf(broken),
      size: broken.length,
      bytes: broken,
      file: null,
    };
    expect(await resizer.resize(damaged, 64)).toBeNull();
  });
});
