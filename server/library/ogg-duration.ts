/**
 * The length of an Ogg Vorbis or Opus stream without reading it through: a page's granule position
 * counts the samples decoded up to its end, so the last page of the stream holds the total. It is
 * found by reading backwards from the end of the file in small chunks; the first page says which
 * codec it is, its sample rate and (Opus) how many samples the decoder drops at the start.
 */
import { withWindow, type ByteSource } from './file-window.js';

/** The fixed part of a page header: "OggS", version, flags, granule (8), serial (4), sequence, CRC, segment count. */
const PAGE_HEADER = 27;
const FIRST_PAGE_BYTES = 512;
/** How far back each look goes (pages are at most ~64 KiB); the file window reads more at once. */
const CHUNK = 16 * 1024;
/** A stream whose last page is not found this far from the end is not one this reader knows. */
const MAX_BACKWARDS = 256 * 1024;
/** A page header with the longest segment table: a page starting before a chunk's end has both in it. */
const OVERLAP = PAGE_HEADER + 255;
/** Opus always decodes at 48 kHz, whatever input rate its header mentions. */
const OPUS_RATE = 48000;

interface StreamHead {
  serial: number;
  sampleRate: number;
  /** Samples the decoder drops from the start (Opus pre-skip; 0 for Vorbis). */
  preSkip: number;
}

/** Reads the identification header in the first page; null for a codec other than Vorbis or Opus. */
export function streamHead(first: Buffer): StreamHead | null {
  if (first.length < PAGE_HEADER || first.toString('latin1', 0, 4) !== 'OggS') return null;
  const segments = first[26]!;
  const packet = first.subarray(PAGE_HEADER + segments);
  const serial = first.readUInt32LE(14);
  if (packet.length >= 16 && packet.toString('latin1', 0, 7) === '\x01vorbis') {
    const sampleRate = packet.readUInt32LE(12);
    return sampleRate > 0 ? { serial, sampleRate, preSkip: 0 } : null;
  }
  if (packet.length >= 12 && packet.toString('latin1', 0, 8) === 'OpusHead')
    return { serial, sampleRate: OPUS_RATE, preSkip: packet.readUInt16LE(10) };
  return null;
}

/**
 * The granule position of the last complete page of stream `serial` in `chunk` (which starts at
 * byte `offset` of a file of `size` bytes), or null when the chunk holds none. A page whose declared
 * length runs past the end of the file is cut short and does not count; the granule -1 marks a page
 * on which no packet ends. A page whose segment table is not whole in the chunk is skipped: the
 * chunks overlap so that it was whole in the read after this one (or the file is cut inside it).
 */
export function lastGranule(chunk: Buffer, offset: number, size: number, serial: number): bigint | null {
  for (let at = chunk.lastIndexOf('OggS', chunk.length - PAGE_HEADER); at >= 0;) {
    if (chunk[at + 4] === 0 && chunk.readUInt32LE(at + 14) === serial) {
      const segments = chunk[at + 26]!;
      const granule = chunk.readBigInt64LE(at + 6);
      const end = pageEnd(chunk, at, segments);
      if (granule >= 0n && end !== null && offset + end <= size) return granule;
    }
    at = at === 0 ? -1 : chunk.lastIndexOf('OggS', at - 1);
  }
  return null;
}

/** Where the page at `at` ends, or null when its segment table is not in the chunk. */
function pageEnd(chunk: Buffer, at: number, segments: number): number | null {
  const table = at + PAGE_HEADER;
  if (table + segments > chunk.length) return null;
  let body = 0;
  for (let i = 0; i < segments; i++) body += chunk[table + i]!;
  return table + segments + body;
}

/**
 * The duration in seconds of an Ogg Vorbis or Opus file as a decoder plays it; null for another
 * codec, a chained file whose last stream is not the first, or a file without a last page.
 */
export function oggDuration(file: ByteSource): Promise<number | null> {
  return withWindow(file, async (window) => {
    const { size } = window;
    const head = streamHead(await window.read(0, FIRST_PAGE_BYTES));
    if (!head) return null;
    for (let end = size; end > 0 && size - end < MAX_BACKWARDS; end -= CHUNK - OVERLAP) {
      const start = Math.max(0, end - CHUNK);
      const granule = lastGranule(await window.read(start, end - start), start, size, head.serial);
      if (granule !== null) {
        const samples = Number(granule) - head.preSkip;
        return samples > 0 ? samples / head.sampleRate : null;
      }
      if (start === 0) break;
    }
    return null;
  });
}
