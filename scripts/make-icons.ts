/**
 * Draws Melon's icons (a watermelon slice) and writes them to build/ as PNGs, with only Node:
 * a hand-written PNG encoder over node:zlib. Run: `npx tsx scripts/make-icons.ts`.
 *   build/icon.png              512×512 app icon (electron-builder makes .ico/.icns from it)
 *   build/tray.png              32×32 tray icon (Windows, Linux)
 *   build/trayTemplate.png      16×16 macOS menu-bar template (black + alpha), and its @2x
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

type Rgba = [number, number, number, number];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGBA PNG; each scanline uses filter 0 (none), which deflate handles well for flat art. */
export function encodePng(width: number, height: number, pixels: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const raw = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    Buffer.from(pixels.buffer, pixels.byteOffset + y * width * 4, width * 4).copy(
      raw,
      y * (width * 4 + 1) + 1,
    );
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const RIND: Rgba = [46, 125, 50, 255];
const LIGHT_RIND: Rgba = [139, 195, 74, 255];
const PITH: Rgba = [241, 248, 233, 255];
const FLESH: Rgba = [255, 82, 82, 255];
const SEED: Rgba = [38, 30, 30, 255];
const CLEAR: Rgba = [0, 0, 0, 0];

/** The slice seen from above, in unit coordinates (-1..1); `seeds` is how many sit on the ring. */
function melon(x: number, y: number, seeds: number): Rgba {
  const r = Math.hypot(x, y);
  if (r > 0.96) return CLEAR;
  if (r > 0.88) return RIND;
  if (r > 0.8) return LIGHT_RIND;
  if (r > 0.74) return PITH;
  for (let i = 0; i < seeds; i++) {
    const angle = (i / seeds) * Math.PI * 2 + Math.PI / seeds;
    const sx = Math.cos(angle) * 0.45;
    const sy = Math.sin(angle) * 0.45;
    // Teardrops pointing at the centre: an ellipse stretched along the radius.
    const along = (x - sx) * Math.cos(angle) + (y - sy) * Math.sin(angle);
    const across = -(x - sx) * Math.sin(angle) + (y - sy) * Math.cos(angle);
    if ((along / 0.11) ** 2 + (across / 0.06) ** 2 <= 1) return SEED;
  }
  return FLESH;
}

/** The macOS template: the slice's outline and seeds as alpha on black. */
function template(x: number, y: number): Rgba {
  const r = Math.hypot(x, y);
  if (r > 0.96) return CLEAR;
  if (r > 0.8) return [0, 0, 0, 255];
  const inner = melon(x, y, 6);
  return inner === SEED ? [0, 0, 0, 255] : r > 0.72 ? CLEAR : [0, 0, 0, 110];
}

/** Renders with 4×4 supersampling so the edges are smooth at every size. */
function render(size: number, shade: (x: number, y: number) => Rgba): Buffer {
  const pixels = new Uint8Array(size * size * 4);
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = ((px + (sx + 0.5) / samples) / size) * 2 - 1;
          const y = ((py + (sy + 0.5) / samples) / size) * 2 - 1;
          const [cr, cg, cb, ca] = shade(x, y);
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      }
      const offset = (py * size + px) * 4;
      pixels[offset] = a ? Math.round(r / a) : 0;
      pixels[offset + 1] = a ? Math.round(g / a) : 0;
      pixels[offset + 2] = a ? Math.round(b / a) : 0;
      pixels[offset + 3] = Math.round(a / samples ** 2);
    }
  }
  return encodePng(size, size, pixels);
}

function main(): void {
  const out = new URL('../build/', import.meta.url);
  mkdirSync(out, { recursive: true });
  const files: [string, Buffer][] = [
    ['icon.png', render(512, (x, y) => melon(x, y, 8))],
    ['tray.png', render(32, (x, y) => melon(x, y, 6))],
    ['trayTemplate.png', render(16, template)],
    ['trayTemplate@2x.png', render(32, template)],
  ];
  for (const [name, png] of files) {
    writeFileSync(new URL(name, out), png);
    console.log(`build/${name}: ${png.length} bytes`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
