/**
 * Exact durations from the frames, for the two streams whose length music-metadata can only
 * estimate: MP3 (without a Xing/Info/VBRI header it guesses from the file size, ~0.5 % off; with one it
 * ignores the LAME tag's encoder delay and padding) and raw ADTS AAC (it stops a frame short). A full
 * decode plays every frame, so the frame count times the samples per frame is what a player hears.
 */
import { withWindow, type ByteSource, type FileWindow } from './file-window.js';

/** A jump (a probe, the first frames) reads little; a walk over frames reads more at once. */
const JUMP_AHEAD = 16 * 1024;
const WALK_AHEAD = 256 * 1024;
/** A request this close after the one before it is part of a walk. */
const WALK_STEP = 8 * 1024;

/** Reads through the file's window, guessing from the requests whether a walk is on. */
class FrameReader {
  private last = -Infinity;
  /** Pieces brought in at once ahead of their use (see bringIn), beside the window's. */
  private pieces: Array<{ start: number; bytes: Buffer }> = [];

  constructor(private readonly window: FileWindow) {}

  get size(): number {
    return this.window.size;
  }

  /** The `n` bytes at `offset` (fewer at the end of the file) when they are in the window; else null. */
  peek(offset: number, n: number): Buffer | null {
    const bytes = this.window.peek(offset, n) ?? this.inPieces(offset, n);
    if (bytes) this.last = offset;
    return bytes;
  }

  /** `n` bytes at `offset`, or fewer at the end of the file. */
  bytes(offset: number, n: number): Promise<Buffer> {
    const walking = offset >= this.last && offset - this.last <= WALK_STEP;
    this.last = offset;
    const piece = this.inPieces(offset, n);
    if (piece) return Promise.resolve(piece);
    return this.window.read(offset, n, walking ? WALK_AHEAD : JUMP_AHEAD);
  }

  /**
   * Reads `n` bytes at each of `places` at once, for the reads of them that follow. Read one after
   * the other, each would be a trip through the thread pool that waits for the one before.
   */
  async bringIn(places: number[], n: number): Promise<void> {
    const pieces = await Promise.all(places.map((at) => this.window.readApart(at, n)));
    this.pieces = places.map((start, i) => ({ start, bytes: pieces[i]! }));
  }

  private inPieces(offset: number, n: number): Buffer | null {
    const end = Math.min(offset + n, this.size);
    for (const { start, bytes } of this.pieces)
      if (offset >= start && end <= start + bytes.length) return bytes.subarray(offset - start, end - start);
    return null;
  }
}

function withReader<T>(file: ByteSource, use: (reader: FrameReader) => Promise<T>): Promise<T> {
  return withWindow(file, (window) => use(new FrameReader(window)));
}

/** Skips ID3v2 tags at the start (there may be several). */
async function afterId3v2(reader: FrameReader): Promise<number> {
  let pos = 0;
  for (;;) {
    const head = await reader.bytes(pos, 10);
    if (head.length < 10 || head.toString('latin1', 0, 3) !== 'ID3') return pos;
    const size =
      ((head[6]! & 0x7f) << 21) | ((head[7]! & 0x7f) << 14) | ((head[8]! & 0x7f) << 7) | (head[9]! & 0x7f);
    const footer = head[5]! & 0x10 ? 10 : 0;
    pos += 10 + size + footer;
  }
}

// ------------------------------------------------------------------------------------------------ MPEG

const MPEG_BITRATES: Record<string, number[]> = {
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MPEG_RATES: Record<number, number[]> = {
  1: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  25: [11025, 12000, 8000],
};

export interface MpegFrame {
  length: number;
  samples: number;
  sampleRate: number;
  /** Where a Xing/Info header would start in this frame (layer III only). */
  xingOffset: number | null;
}

/** Parses a 4-byte MPEG audio frame header; null when the bytes are not one. */
export function mpegFrame(h: Uint8Array): MpegFrame | null {
  if (h.length < 4 || h[0] !== 0xff || (h[1]! & 0xe0) !== 0xe0) return null;
  const versionBits = (h[1]! >> 3) & 3;
  const layerBits = (h[1]! >> 1) & 3;
  const bitrateIndex = h[2]! >> 4;
  const rateIndex = (h[2]! >> 2) & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3)
    return null; // reserved values, or free format (no frame length to walk by)
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 25;
  const layer = 4 - layerBits;
  const bitrate = MPEG_BITRATES[`${version === 1 ? 1 : 2}-${layer}`]![bitrateIndex]! * 1000;
  const sampleRate = MPEG_RATES[version]![rateIndex]!;
  const padding = (h[2]! >> 1) & 1;
  const mono = h[3]! >> 6 === 3;
  if (layer === 1) {
    return {
      length: (Math.floor((12 * bitrate) / sampleRate) + padding) * 4,
      samples: 384,
      sampleRate,
      xingOffset: null,
    };
  }
  const samples = layer === 3 && version !== 1 ? 576 : 1152;
  const length = Math.floor(((samples / 8) * bitrate) / sampleRate) + padding;
  const crc = (h[1]! & 1) === 0 ? 2 : 0;
  const sideInfo = version === 1 ? (mono ? 17 : 32) : mono ? 9 : 17;
  return { length, samples, sampleRate, xingOffset: layer === 3 ? 4 + crc + sideInfo : null };
}

/**
 * The duration in seconds of an MP3 as a decoder plays it; null when only music-metadata can tell
 * (a VBRI header) or there are no frames.
 * - With a Xing/Info header: its frame count, less the encoder delay and padding of a LAME tag (which
 *   decoders drop; music-metadata counts them, ~25-70 ms).
 * - Without, at a constant bit rate: the audio's bytes (after the ID3v2 tag, before the tags at the
 *   end) over the length every frame of that rate has on average: the frame count.
 * - Without, at a variable bit rate: every frame counted. Sampling frames would only estimate the
 *   length, and encoders that vary the rate nearly always write a Xing header, so this is rare.
 *   (music-metadata estimates from the file size, without the tags, ~0.5 % off.)
 */
export function mpegDuration(file: ByteSource): Promise<number | null> {
  return withReader(file, async (reader) => {
    let pos = await findMpegSync(reader, await afterId3v2(reader));
    if (pos === null) return null;
    const first = mpegFrame(await reader.bytes(pos, 4))!;
    const head = await reader.bytes(pos, Math.max(first.length, 40));
    if (head.toString('latin1', 36, 40) === 'VBRI') return null;
    const fromHeader = xingDuration(head, first);
    if (fromHeader !== undefined) return fromHeader;
    const bitrate = mpegBitrate(head);
    if (await constantBitrate(reader, pos, bitrate)) {
      // Padding bytes keep a CBR stream's average frame at exactly this length.
      const frameBytes = (first.samples * bitrate) / (8 * first.sampleRate);
      const frames = Math.round(((await audioEnd(reader)) - pos) / frameBytes);
      return frames > 0 ? (frames * first.samples) / first.sampleRate : null;
    }
    let samples = 0;
    while (pos !== null && pos < reader.size) {
      const frame = mpegFrame(await reader.bytes(pos, 4));
      if (frame && frame.sampleRate === first.sampleRate) {
        if (pos + frame.length > reader.size) break; // a truncated last frame does not play
        samples += frame.samples;
        pos += frame.length;
        continue;
      }
      // Garbage or a trailing tag (ID3v1 "TAG", APE, Lyrics3): resync on the next pair of frames.
      pos = await findMpegSync(reader, pos + 1);
    }
    return samples > 0 ? samples / first.sampleRate : null;
  });
}

/** The bit rate in bit/s of a frame header that `mpegFrame` accepts. */
function mpegBitrate(h: Uint8Array): number {
  const version = (h[1]! >> 3) & 3;
  const layer = 4 - ((h[1]! >> 1) & 3);
  return MPEG_BITRATES[`${version === 3 ? 1 : 2}-${layer}`]![h[2]! >> 4]! * 1000;
}

/** Frames looked at from the start, and the places further on where a few more are looked at. */
const CBR_FIRST_FRAMES = 32;
const CBR_PROBES = 12;
const CBR_PROBE_FRAMES = 4;

/**
 * Whether the stream looks like constant bit rate: the first frames and a few at spread places all
 * have the first frame's bit rate. A variable stream changes rate within a few frames; one that
 * happens to keep one rate at every probe has frames of that rate's size nearly everywhere, so its
 * length from the byte count is still close.
 */
async function constantBitrate(reader: FrameReader, first: number, bitrate: number): Promise<boolean> {
  if (!(await sameRate(reader, { pos: first, n: 0 }, CBR_FIRST_FRAMES, bitrate))) return false;
  const span = reader.size - first;
  const places = Array.from(
    { length: CBR_PROBES },
    (_, k) => first + Math.floor((span * (k + 1)) / (CBR_PROBES + 1)),
  );
  await reader.bringIn(places, JUMP_AHEAD);
  for (const place of places) {
    const at = await findMpegSync(reader, place);
    if (at !== null && !(await sameRate(reader, { pos: at, n: 0 }, CBR_PROBE_FRAMES, bitrate))) return false;
  }
  return true;
}

interface FrameWalk {
  pos: number;
  /** Frames looked at so far. */
  n: number;
}

/**
 * Whether the `frames` frames from the walk's place all have `bitrate`. The frames are looked at by
 * sameRateInWindow, a plain function, while their headers are in the reader's window; this async
 * function only brings the next piece of the file in. A loop of awaits would have V8 compile the
 * async function whole with its optimizing compiler, at a cost the first files of a scan pay.
 */
async function sameRate(
  reader: FrameReader,
  walk: FrameWalk,
  frames: number,
  bitrate: number,
): Promise<boolean> {
  for (;;) {
    const same = sameRateInWindow(reader, walk, frames, bitrate);
    if (same !== undefined) return same;
    // A file cut short while it is read: no header there, as in sameRateInWindow.
    if ((await reader.bytes(walk.pos, 4)).length < 4) return walk.n > 0;
  }
}

/** sameRate's answer, or undefined when the next header is not in the window (the walk stops there). */
function sameRateInWindow(
  reader: FrameReader,
  walk: FrameWalk,
  frames: number,
  bitrate: number,
): boolean | undefined {
  for (; walk.n < frames && walk.pos + 4 <= reader.size; walk.n++) {
    const h = reader.peek(walk.pos, 4);
    if (!h) return undefined;
    const frame = mpegFrame(h);
    if (!frame) return walk.n > 0; // the end of the frames (a trailing tag) after some that matched
    if (mpegBitrate(h) !== bitrate) return false;
    walk.pos += frame.length;
  }
  return true;
}

/** Where the audio ends: before an ID3v1 tag, a Lyrics3v2 block and an APE tag at the end, if any. */
async function audioEnd(reader: FrameReader): Promise<number> {
  let end = reader.size;
  if (end >= 128 && (await reader.bytes(end - 128, 3)).toString('latin1') === 'TAG') end -= 128;
  if (end >= 15) {
    const lyrics = (await reader.bytes(end - 15, 15)).toString('latin1');
    if (lyrics.endsWith('LYRICS200') && /^\d{6}/.test(lyrics)) end -= 15 + Number(lyrics.slice(0, 6));
  }
  if (end >= 32) {
    const footer = await reader.bytes(end - 32, 32);
    if (footer.toString('latin1', 0, 8) === 'APETAGEX') {
      const hasHeader = (footer.readUInt32LE(20) & 0x80000000) !== 0;
      end -= footer.readUInt32LE(12) + (hasHeader ? 32 : 0);
    }
  }
  return end;
}

/**
 * The duration a Xing/Info header in the first frame gives; undefined when there is no such header,
 * null when it has no frame count.
 */
function xingDuration(head: Buffer, first: MpegFrame): number | null | undefined {
  if (first.xingOffset === null || head.length < first.xingOffset + 8) return undefined;
  const tag = head.toString('latin1', first.xingOffset, first.xingOffset + 4);
  if (tag !== 'Xing' && tag !== 'Info') return undefined;
  const flags = head.readUInt32BE(first.xingOffset + 4);
  if (!(flags & 1)) return null;
  let at = first.xingOffset + 8;
  const frames = head.readUInt32BE(at);
  at += 4;
  if (flags & 2) at += 4; // byte count
  if (flags & 4) at += 100; // seek table
  if (flags & 8) at += 4; // quality
  let samples = frames * first.samples;
  // A LAME tag (written by LAME and by ffmpeg) starts with a 9-character encoder name; its delay and
  // padding are 12 bits each at byte 21.
  if (head.length >= at + 24 && /^[\x20-\x7e]{4}/.test(head.toString('latin1', at, at + 4))) {
    const delay = (head[at + 21]! << 4) | (head[at + 22]! >> 4);
    const padding = ((head[at + 22]! & 0x0f) << 8) | head[at + 23]!;
    if (delay + padding < samples) samples -= delay + padding;
  }
  return samples > 0 ? samples / first.sampleRate : null;
}

/** How far a search for a frame header looks at once, synchronously, in the reader's window. */
const SYNC_SPAN = 4096;

/** The next offset holding a frame header followed by another (one lone 0xFFE is often chance). */
async function findMpegSync(reader: FrameReader, from: number): Promise<number | null> {
  for (let base = from; base + 4 <= reader.size; base += SYNC_SPAN) {
    // Four bytes more than the span, so a header that starts at its end is whole.
    const buf = await reader.bytes(base, Math.min(SYNC_SPAN + 4, reader.size - base));
    for (
      let i = buf.indexOf(0xff);
      i >= 0 && i < SYNC_SPAN && i + 4 <= buf.length;
      i = buf.indexOf(0xff, i + 1)
    ) {
      const frame = mpegFrame(buf.subarray(i, i + 4));
      if (!frame) continue;
      const next = base + i + frame.length;
      if (next === reader.size) return base + i;
      const following = mpegFrame(await reader.bytes(next, 4));
      if (following && following.sampleRate === frame.sampleRate) return base + i;
    }
  }
  return null;
}

// ------------------------------------------------------------------------------------------------ ADTS

const ADTS_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** The duration in seconds of a raw ADTS AAC stream by counting its frames; null when it has none. */
export function adtsDuration(file: ByteSource): Promise<number | null> {
  return withReader(file, async (reader) => {
    let pos = await afterId3v2(reader);
    let samples = 0;
    let rate = 0;
    while (pos + 7 <= reader.size) {
      const h = await reader.bytes(pos, 7);
      const rateIndex = (h[2]! >> 2) & 0xf;
      const length = ((h[3]! & 3) << 11) | (h[4]! << 3) | (h[5]! >> 5);
      const valid = h[0] === 0xff && (h[1]! & 0xf6) === 0xf0 && rateIndex < ADTS_RATES.length && length >= 7;
      if (!valid || pos + length > reader.size) break;
      if (rate === 0) rate = ADTS_RATES[rateIndex]!;
      samples += 1024 * ((h[6]! & 3) + 1);
      pos += length;
    }
    return samples > 0 && rate > 0 ? samples / rate : null;
  });
}
