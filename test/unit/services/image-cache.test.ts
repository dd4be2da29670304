import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  fileKey,
  ImageCache,
  type ImageCacheLimits,
  type LoadedImage,
} from '../../../server/services/image-cache.js';

/** The bounded, shared cache of decoded images, with counting loaders. */
let dir: string;
let audio: string;
const LIMITS: ImageCacheLimits = {
  memoryBytes: 4096,
  inMemoryMaxBytes: 1024,
  diskBytes: 8192,
  concurrency: 2,
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'melon-image-cache-'));
  audio = join(dir, 'track.mp3');
  await writeFile(audio, 'audio');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const spill = () => join(dir, 'spill');
const png = (size: number, fill = 1): LoadedImage => ({ mime: 'image/png', data: Buffer.alloc(size, fill) });

/** A loader whose calls are counted and which finishes when told. */
function gatedLoader(image: LoadedImage | undefined) {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const loader = {
    calls: 0,
    running: 0,
    maxRunning: 0,
    open: () => open(),
    load: async () => {
      loader.calls++;
      loader.running++;
      loader.maxRunning = Math.max(loader.maxRunning, loader.running);
      await gate;
      loader.running--;
      return image;
    },
  };
  return loader;
}

describe('ImageCache', () => {
  it('shares one load between concurrent requests for the same image, then serves it from memory', async () => {
    const cache = new ImageCache(spill(), LIMITS);
    const loader = gatedLoader(png(100));
    const key = await fileKey(audio, 0);
    const pending = Array.from({ length: 40 }, () => cache.get(key, loader.load));
    loader.open();
    const images = await Promise.all(pending);
    expect(loader.calls).toBe(1);
    expect(new Set(images).size).toBe(1);
    expect(images[0]).toMatchObject({ mime: 'image/png', size: 100, file: null });
    expect(images[0]!.bytes).toEqual(Buffer.alloc(100, 1));
    expect(images[0]!.etag).toMatch(/^"[\w-]{27}"$/);
    await cache.get(key, loader.load);
    expect(loader.calls).toBe(1);
  });

  it('runs at most `concurrency` loads at once, whatever is asked for', async () => {
    const cache = new ImageCache(spill(), LIMITS);
    const loader = gatedLoader(png(10));
    const keys = await Promise.all(Array.from({ length: 6 }, (_, pos) => fileKey(audio, pos)));
    const pending = keys.map((key) => cache.get(key, loader.load));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loader.running).toBe(2);
    loader.open();
    await Promise.all(pending);
    expect(loader.calls).toBe(6);
    expect(loader.maxRunning).toBe(2);
  });

  it('keeps large images in a file of their own, and empties the folder on close', async () => {
    const cache = new ImageCache(spill(), LIMITS);
    const image = await cache.get(await fileKey(audio, 0), () => Promise.resolve(png(2000, 7)));
    expect(image).toMatchObject({ bytes: null, size: 2000 });
    expect(image!.file!.startsWith(spill())).toBe(true);
    expect(await readdir(spill())).toHaveLength(1);
    await cache.close();
    await expect(readdir(spill())).rejects.toThrow(/ENOENT/);
  });

  it('is bounded by bytes in memory and on disk, least recently used out first', async () => {
    const cache = new ImageCache(spill(), LIMITS);
    let loads = 0;
    const load = (size: number) => () => {
      loads++;
      return Promise.resolve(png(size));
    };
    for (let pos = 0; pos < 10; pos++) await cache.get(await fileKey(audio, pos), load(1000));
    // 4096 bytes of memory hold two of them (each also costs its record): 0..7 are gone.
    loads = 0;
    await cache.get(await fileKey(audio, 9), load(1000));
    expect(loads).toBe(0);
    await cache.get(await fileKey(audio, 0), load(1000));
    expect(loads).toBe(1);
    for (let pos = 100; pos < 110; pos++) await cache.get(await fileKey(audio, pos), load(2000));
    // Evicted files are removed in the background.
    await vi.waitFor(async () => expect((await readdir(spill())).length).toBe(4));
  });

  it('reads an edited file anew (its key has the modification time), and keeps no failures', async () => {
    const cache = new ImageCache(spill(), LIMITS);
    expect((await cache.get(await fileKey(audio, 0), () => Promise.resolve(png(10, 1))))!.bytes![0]).toBe(1);
    await utimes(audio, new Date(), new Date(Date.now() + 5000));
    expect((await cache.get(await fileKey(audio, 0), () => Promise.resolve(png(10, 2))))!.bytes![0]).toBe(2);
    await expect(
      cache.get(await fileKey(audio, 1), () => Promise.reject(new Error('unreadable'))),
    ).rejects.toThrow('unreadable');
    expect(await cache.get(await fileKey(audio, 1), () => Promise.resolve(undefined))).toBeNull();
    await expect(fileKey(join(dir, 'gone.mp3'), 0)).rejects.toThrow(/ENOENT/);
  });

  it('keeps nothing of bytes that are not an image', async () => {
    const cache = new ImageCache(spill(), LIMITS);
    const html = { mime: null, data: Buffer.from('<script>alert(1)</script>'.repeat(100)) };
    expect(await cache.get(await fileKey(audio, 0), () => Promise.resolve(html))).toMatchObject({
      mime: null,
      bytes: null,
      file: null,
    });
  });
});
