import { randomBytes } from 'node:crypto';
import { createDeflate, crc32 } from 'node:zlib';
import sharp from 'sharp';

/** One PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A decompression bomb: a valid 16383 × 16383 RGBA PNG of transparent pixels (sharp's default pixel
 * limit lets it through) that is about 1 MB on disk and 1 GiB decoded. The rows are deflated as a
 * stream, so making it never holds the decoded picture either.
 */
export async function pngBomb(edge = 16383): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(edge, 0);
  header.writeUInt32BE(edge, 4);
  header.writeUInt8(8, 8); // bits per sample
  header.writeUInt8(6, 9); // RGBA
  const row = Buffer.alloc(1 + edge * 4); // filter byte 0, then zeros
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  for (let y = 0; y < edge; y += 1) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(parts)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ordinary, valid PNG photo-sized cover of random pixels (PNG cannot compress them). */
export function noisePng(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}
