import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtures, handMadeWebp } from '../../../scripts/make-fixtures.js';
import { sniffImage } from '../../../server/library/image-info.js';

let images: string;

beforeAll(async () => {
  images = path.join(await ensureFixtures(), 'images');
});

const image = (name: string): Promise<Buffer> => readFile(path.join(images, name));

/** A RIFF/WEBP container around one chunk. */
function webp(fourcc: string, payload: number[]): Uint8Array {
  const data = Buffer.from(payload);
  const chunk = Buffer.concat([Buffer.from(fourcc), u32le(data.length), data]);
  return Buffer.concat([Buffer.from('RIFF'), u32le(4 + chunk.length), Buffer.from('WEBP'), chunk]);
}

function u32le(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

describe('sniffImage', () => {
  it('reads the size of real PNG, JPEG and WebP files', async () => {
    expect(sniffImage(await image('cover.png'))).toEqual({ mime: 'image/png', width: 64, height: 64 });
    expect(sniffImage(await image('back.jpg'))).toEqual({ mime: 'image/jpeg', width: 48, height: 32 });
    expect(sniffImage(await image('photo.webp'))).toEqual({ mime: 'image/webp', width: 40, height: 40 });
  });

  it('rejects text with an image name and other formats', async () => {
    expect(sniffImage(await image('not-an-image.png'))).toBeNull();
    expect(sniffImage(new Uint8Array())).toBeNull();
    expect(sniffImage(Buffer.from('GIF89a\x01\x00\x01\x00'))).toBeNull();
    expect(sniffImage(Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt '))).toBeNull();
  });

  it('reads lossless (VP8L) WebP headers', () => {
    expect(sniffImage(handMadeWebp(300, 2))).toEqual({ mime: 'image/webp', width: 300, height: 2 });
    expect(sniffImage(handMadeWebp(16384, 16384))).toEqual({
      mime: 'image/webp',
      width: 16384,
      height: 16384,
    });
  });

  it('reads lossy (VP8) and extended (VP8X) WebP headers', () => {
    // frame tag, start code, 14-bit width 640 and height 480 (the top two bits are scaling).
    const vp8 = webp('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 0x80, 0x42, 0xe0, 0x01]);
    expect(sniffImage(vp8)).toEqual({ mime: 'image/webp', width: 640, height: 480 });
    // flags, then canvas width-1 = 999 and height-1 = 69999 as 24-bit little-endian numbers.
    const vp8x = webp('VP8X', [0x10, 0, 0, 0, 0xe7, 0x03, 0x00, 0x6f, 0x11, 0x01]);
    expect(sniffImage(vp8x)).toEqual({ mime: 'image/webp', width: 1000, height: 70000 });
  });

  it('reads progressive JPEG frames after other segments', () => {
    const jpeg = Buffer.from([
      ...[0xff, 0xd8],
      ...[0xff, 0xe0, 0x00, 0x04, 0x00, 0x00], // APP0 with 2 payload bytes
      ...[0xff, 0xc4, 0x00, 0x03, 0x00], // DHT: not a frame header despite its C-range marker
      ...[0xff, 0xff, 0xc2, 0x00, 0x0b, 0x08, 0x01, 0x2c, 0x02, 0x58, 0x03], // SOF2 after a fill byte
    ]);
    expect(sniffImage(jpeg)).toEqual({ mime: 'image/jpeg', width: 600, height: 300 });
  });

  it('recognises truncated images but reports an unknown size', async () => {
    const png = await image('cover.png');
    expect(sniffImage(png.subarray(0, 18))).toEqual({ mime: 'image/png', width: null, height: null });
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toEqual({
      mime: 'image/jpeg',
      width: null,
      height: null,
    });
    expect(sniffImage(webp('VP8 ', [0, 0, 0, 1, 2, 3]))).toEqual({
      mime: 'image/webp',
      width: null,
      height: null,
    });
  });
});
