/**
 * Recognises raster images (JPEG, PNG, GIF, WebP, AVIF, BMP) by their bytes (never by name or
 * declared type) and reads their pixel size from the headers, without decoding anything. Nothing
 * else counts as an image: SVG and HTML can carry script, so they are never recognised.
 */

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'image/avif' | 'image/bmp';

export interface ImageInfo {
  mime: ImageMime;
  width: number | null;
  height: number | null;
}

interface Size {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function sniffImage(bytes: Uint8Array): ImageInfo | null {
  if (startsWith(bytes, 0, PNG_SIGNATURE)) return withSize('image/png', pngSize(bytes));
  if (startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return withSize('image/jpeg', jpegSize(bytes));
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') {
    return withSize('image/webp', webpSize(bytes));
  }
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') {
    return withSize('image/gif', size(le(bytes, 6, 2), le(bytes, 8, 2)));
  }
  if (isAvif(bytes)) return withSize('image/avif', avifSize(bytes));
  if (isBmp(bytes)) return withSize('image/bmp', bmpSize(bytes));
  return null;
}

function withSize(mime: ImageMime, size: Size | null): ImageInfo {
  // A zero dimension is not a real size: report it as unknown rather than as 0.
  if (!size || size.width <= 0 || size.height <= 0) return { mime, width: null, height: null };
  return { mime, width: size.width, height: size.height };
}

function startsWith(bytes: Uint8Array, at: number, expected: number[]): boolean {
  return bytes.length >= at + expected.length && expected.every((b, i) => bytes[at + i] === b);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (bytes.length < at + length) return '';
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** Reads a big- or little-endian unsigned integer of `length` bytes; null when it runs past the end. */
function uint(bytes: Uint8Array, at: number, length: number, littleEndian: boolean): number | null {
  if (at < 0 || bytes.length < at + length) return null;
  let value = 0;
  for (let i = 0; i < length; i++) {
    const byte = bytes[littleEndian ? at + length - 1 - i : at + i]!;
    value = value * 256 + byte;
  }
  return value;
}

const be = (bytes: Uint8Array, at: number, length: number): number | null => uint(bytes, at, length, false);
const le = (bytes: Uint8Array, at: number, length: number): number | null => uint(bytes, at, length, true);

function size(width: number | null, height: number | null): Size | null {
  return width === null || height === null ? null : { width, height };
}

// ------------------------------------------------------------------------------------------------ PNG

/** The first chunk of a valid PNG is IHDR: width and height are its first two 32-bit fields. */
function pngSize(bytes: Uint8Array): Size | null {
  if (ascii(bytes, 12, 4) !== 'IHDR') return null;
  return size(be(bytes, 16, 4), be(bytes, 20, 4));
}

// ----------------------------------------------------------------------------------------------- JPEG

/** SOF0..SOF15 carry the frame size, except C4 (DHT), C8 (JPG extension) and CC (DAC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers without a length field. */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);
}

function jpegSize(bytes: Uint8Array): Size | null {
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    // Any number of 0xFF fill bytes may precede a marker.
    while (bytes[at] === 0xff) at++;
    const marker = bytes[at];
    if (marker === undefined) return null;
    at++;
    if (isStandalone(marker)) continue;
    // End of image or start of scan before any frame header: there is no size to read.
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = be(bytes, at, 2);
    if (length === null || length < 2) return null;
    if (isStartOfFrame(marker)) return size(be(bytes, at + 5, 2), be(bytes, at + 3, 2));
    at += length;
  }
  return null;
}

// ----------------------------------------------------------------------------------------------- WebP

function webpSize(bytes: Uint8Array): Size | null {
  const chunk = ascii(bytes, 12, 4);
  const data = 20;
  if (chunk === 'VP8 ') return vp8Size(bytes, data);
  if (chunk === 'VP8L') return vp8lSize(bytes, data);
  if (chunk === 'VP8X') return vp8xSize(bytes, data);
  return null;
}

/** Lossy: a 3-byte frame tag, the start code 9D 01 2A, then 14-bit width and height (2 scale bits). */
function vp8Size(bytes: Uint8Array, at: number): Size | null {
  if (!startsWith(bytes, at + 3, [0x9d, 0x01, 0x2a])) return null;
  const width = le(bytes, at + 6, 2);
  const height = le(bytes, at + 8, 2);
  return size(width === null ? null : width & 0x3fff, height === null ? null : height & 0x3fff);
}

/** Lossless: signature 0x2F, then width-1 and height-1 as 14-bit fields, least significant bit first. */
function vp8lSize(bytes: Uint8Array, at: number): Size | null {
  if (bytes[at] !== 0x2f) return null;
  const bits = le(bytes, at + 1, 4);
  if (bits === null) return null;
  return size((bits & 0x3fff) + 1, (Math.floor(bits / 0x4000) & 0x3fff) + 1);
}

/** Extended: 4 bytes of flags, then canvas width-1 and height-1 as 24-bit little-endian numbers. */
function vp8xSize(bytes: Uint8Array, at: number): Size | null {
  const width = le(bytes, at + 4, 3);
  const height = le(bytes, at + 7, 3);
  return size(width === null ? null : width + 1, height === null ? null : height + 1);
}

// ----------------------------------------------------------------------------------------------- AVIF

/** An ISO-BMFF file whose first box is `ftyp` naming the `avif` (still) or `avis` (sequence) brand. */
function isAvif(bytes: Uint8Array): boolean {
  if (ascii(bytes, 4, 4) !== 'ftyp') return false;
  const boxSize = be(bytes, 0, 4);
  if (boxSize === null || boxSize < 16) return false;
  const end = Math.min(boxSize, bytes.length);
  // The major brand at 8, the minor version at 12, then the compatible brands.
  for (let at = 8; at + 4 <= end; at += at === 8 ? 8 : 4) {
    const brand = ascii(bytes, at, 4);
    if (brand === 'avif' || brand === 'avis') return true;
  }
  return false;
}

/** The first `ispe` (image spatial extent) property: version and flags, then width and height. */
function avifSize(bytes: Uint8Array): Size | null {
  const limit = Math.min(bytes.length, 64 * 1024);
  for (let at = 0; at + 16 <= limit; at++) {
    if (bytes[at] === 0x69 && ascii(bytes, at, 4) === 'ispe')
      return size(be(bytes, at + 8, 4), be(bytes, at + 12, 4));
  }
  return null;
}

// ------------------------------------------------------------------------------------------------ BMP

/** The DIB header sizes Windows and OS/2 bitmaps use; text that starts with `BM` has none of them. */
const DIB_HEADER_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

function isBmp(bytes: Uint8Array): boolean {
  const dib = le(bytes, 14, 4);
  return ascii(bytes, 0, 2) === 'BM' && dib !== null && DIB_HEADER_SIZES.has(dib);
}

/** BITMAPCOREHEADER has 16-bit sizes; the others 32-bit ones (a negative height means top-down). */
function bmpSize(bytes: Uint8Array): Size | null {
  if (le(bytes, 14, 4) === 12) return size(le(bytes, 18, 2), le(bytes, 20, 2));
  const width = le(bytes, 18, 4);
  const height = le(bytes, 22, 4);
  return size(width, height === null ? null : Math.abs(height | 0));
}
