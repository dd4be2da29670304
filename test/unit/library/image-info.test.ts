import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtures, handMadeWebp } from '../../../scripts/make-fixtures.js';
import { sniffImage } from '../../../server/library/image-info.js';

let images: string;

const FFMPEG_AVIF =
  'AAAAIGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZk1BMUIAAAD5bWV0YQAAAAAAAAAvaGRscgAAAAAAAAAAcGljdAAAAAAAAAAAAAAAAFBpY3R1cmVIYW5kbGVyAAAAAA5waXRtAAAAAAABAAAAHmlsb2MAAAAARAAAAQABAAAAAQAAASEAAAAiAAAAKGlpbmYAAAAAAAEAAAAaaW5mZQIAAAAAAQAAYXYwMUNvbG9yAAAAAGppcHJwAAAAS2lwY28AAAAUaXNwZQAAAAAAAAAeAAAAFAAAABBwaXhpAAAAAAMICAgAAAAMYXYxQ4EADAAAAAATY29scm5jbHgAAgACAAIAAAAAF2lwbWEAAAAAAAAAAQABBAECgwQAAAAqbWRhdAoKAAAAAidmf/zAIDIUEADAAAACgAAAAuXXO98WvcwYXMg=';

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
    expect(sniffImage(Buffer.from('GIF90a\x01\x00\x01\x00'))).toBeNull();
    expect(sniffImage(Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt '))).toBeNull();
  });

  it('never takes markup for an image: SVG, HTML and text that starts like a bitmap are not images', () => {
    for (const text of [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<?xml version="1.0"?><svg/>',
      '<html><script>alert(1)</script></html>',
      'BM<script>alert(1)</script>',
      '\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom',
    ])
      expect(sniffImage(Buffer.from(text, 'latin1')), text).toBeNull();
  });

  it('reads GIF, BMP and AVIF headers', () => {
    expect(sniffImage(Buffer.from('GIF89a\x1e\x00\x14\x00', 'latin1'))).toEqual({
      mime: 'image/gif',
      width: 30,
      height: 20,
    });
    expect(sniffImage(Buffer.from('GIF87a\x01\x00\x01\x00', 'latin1'))?.mime).toBe('image/gif');
    const bmp = Buffer.alloc(54);
    bmp.write('BM');
    bmp.writeUInt32LE(40, 14); // BITMAPINFOHEADER
    bmp.writeInt32LE(30, 18);
    bmp.writeInt32LE(-20, 22); // top-down
    expect(sniffImage(bmp)).toEqual({ mime: 'image/bmp', width: 30, height: 20 });
    const core = Buffer.alloc(26);
    core.write('BM');
    core.writeUInt32LE(12, 14); // BITMAPCOREHEADER: 16-bit sizes
    core.writeUInt16LE(7, 18);
    core.writeUInt16LE(9, 20);
    expect(sniffImage(core)).toEqual({ mime: 'image/bmp', width: 7, height: 9 });
    // A 30x20 red AVIF made by ffmpeg 5.1 (libaom): `ftyp avif`, the size in `ispe`.
    expect(sniffImage(Buffer.from(FFMPEG_AVIF, 'base64'))).toEqual({
      mime: 'image/avif',
      width: 30,
      height: 20,
    });
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
