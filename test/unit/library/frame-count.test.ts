import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileWindow } from '../../../server/library/file-window.js';
import { adtsDuration, mpegDuration, mpegFrame } from '../../../server/library/frame-count.js';

/** An MPEG-1 layer III header: 128 kbit/s, 44.1 kHz, stereo. */
const MPEG1_128K = [0xff, 0xfb, 0x90, 0x00];

function mpegStream(frames: number, padding = false): Buffer {
  const header = Buffer.from(MPEG1_128K);
  if (padding) header[2]! |= 0x02;
  const length = mpegFrame(header)!.length;
  const frame = Buffer.alloc(length);
  header.copy(frame);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/**
 * A constant bit rate stream as an encoder writes it: a frame is padded by one byte whenever the
 * frames so far fall a byte short of the bit rate. `header` sets version, layer, rate and bit rate.
 */
function cbrStream(frames: number, header = MPEG1_128K): Buffer {
  const plain = mpegFrame(Uint8Array.from(header))!;
  const exact = (plain.samples * mpegBitrateOf(header)) / (8 * plain.sampleRate);
  const out: Buffer[] = [];
  let written = 0;
  for (let n = 1; n <= frames; n++) {
    const padded = Math.floor(n * exact) - written > plain.length;
    const frame = Buffer.alloc(plain.length + (padded ? 1 : 0));
    Buffer.from(header).copy(frame);
    if (padded) frame[2]! |= 0x02;
    out.push(frame);
    written += frame.length;
  }
  return Buffer.concat(out);
}

const mpegBitrateOf = (h: number[]): number =>
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160][h[2]! >> 4]! * 1000;

/** An APE tag (header, one item, footer) as taggers append it, and an ID3v1 tag after it. */
function trailingTags(): Buffer {
  // A long item: the tag is worth several frames, so a length that kept it would be off.
  const value = Buffer.alloc(2000, 0x78);
  const item = Buffer.concat([Buffer.from([0xd0, 0x07, 0, 0, 0, 0, 0, 0]), Buffer.from('Comment\0'), value]);
  const apeBlock = (isHeader: boolean) => {
    const b = Buffer.alloc(32);
    b.write('APETAGEX', 0, 'latin1');
    b.writeUInt32LE(2000, 8);
    b.writeUInt32LE(item.length + 32, 12); // items and footer
    b.writeUInt32LE(1, 16);
    b.writeUInt32LE((0x80000000 | (isHeader ? 0x20000000 : 0)) >>> 0, 20);
    return b;
  };
  const id3v1 = Buffer.concat([Buffer.from('TAG'), Buffer.alloc(125)]);
  return Buffer.concat([apeBlock(true), item, apeBlock(false), id3v1]);
}

async function tempFile(name: string, data: Buffer): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'melon-frames-')), name);
  await writeFile(file, data);
  return file;
}

describe('mpegFrame', () => {
  it('reads the frame length, samples and rate of a header', () => {
    expect(mpegFrame(Uint8Array.from(MPEG1_128K))).toEqual({
      length: 417,
      samples: 1152,
      sampleRate: 44100,
      xingOffset: 36,
    });
    // MPEG-2 layer III, 32 kbit/s, 22.05 kHz, mono, padded.
    expect(mpegFrame(Uint8Array.from([0xff, 0xf3, 0x42, 0xc0]))).toEqual({
      length: 105,
      samples: 576,
      sampleRate: 22050,
      xingOffset: 13,
    });
  });

  it('refuses what is not a frame header', () => {
    expect(mpegFrame(Uint8Array.from([0x49, 0x44, 0x33, 0x03]))).toBeNull(); // "ID3"
    expect(mpegFrame(Uint8Array.from([0xff, 0xfb, 0xf0, 0x00]))).toBeNull(); // bit rate index 15
    expect(mpegFrame(Uint8Array.from([0xff, 0xfb, 0x9c, 0x00]))).toBeNull(); // sample rate index 3
    expect(mpegFrame(Uint8Array.from([0xff, 0xfb]))).toBeNull();
  });
});

describe('mpegDuration', () => {
  it('counts every frame, after an ID3v2 tag and before an ID3v1 tag', async () => {
    const id3v2 = Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x0a', 'latin1'), Buffer.alloc(10)]);
    const id3v1 = Buffer.concat([Buffer.from('TAG'), Buffer.alloc(125)]);
    const file = await tempFile('a.mp3', Buffer.concat([id3v2, mpegStream(100), id3v1]));
    expect(await mpegDuration(file)).toBeCloseTo((100 * 1152) / 44100, 9);
  });

  it('takes the frame count of a Xing header, less the LAME tag’s encoder delay and padding', async () => {
    const stream = mpegStream(10);
    stream.write('Xing', 36, 'latin1');
    stream.writeUInt32BE(0x1, 40); // flags: frame count only
    stream.writeUInt32BE(1000, 44); // frames (the header may speak for a stream longer than the file)
    expect(await mpegDuration(await tempFile('x.mp3', stream))).toBeCloseTo((1000 * 1152) / 44100, 9);
    stream.write('LAME3.100', 48, 'latin1');
    // delay 576 (0x240), padding 1000 (0x3E8): 24 bits 0x2403E8 at byte 21 of the tag.
    stream.writeUIntBE(0x2403e8, 48 + 21, 3);
    expect(await mpegDuration(await tempFile('l.mp3', stream))).toBeCloseTo((1000 * 1152 - 1576) / 44100, 9);
  });

  it('leaves a VBRI header to music-metadata', async () => {
    const stream = mpegStream(10);
    stream.write('VBRI', 36, 'latin1');
    expect(await mpegDuration(await tempFile('v.mp3', stream))).toBeNull();
  });

  it('skips garbage between frames', async () => {
    const data = Buffer.concat([mpegStream(10), Buffer.from('junk!'), mpegStream(10)]);
    expect(await mpegDuration(await tempFile('g.mp3', data))).toBeCloseTo((20 * 1152) / 44100, 9);
  });
});

describe('mpegDuration without a Xing header', () => {
  it('takes a constant bit rate stream’s frame count from its bytes, less the tags at the end', async () => {
    const id3v2 = Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x0a', 'latin1'), Buffer.alloc(10)]);
    const data = Buffer.concat([id3v2, cbrStream(5000), trailingTags()]);
    expect(await mpegDuration(await tempFile('cbr.mp3', data))).toBeCloseTo((5000 * 1152) / 44100, 9);
  });

  it('probes a long stream at its dozen places in one batch, keeping the start and the end read', async () => {
    const data = Buffer.concat([cbrStream(12_000), trailingTags()]);
    const window = await FileWindow.open(await tempFile('long-cbr.mp3', data));
    try {
      // What music-metadata reads first: the tags at the end, then the start.
      await window.read(window.size - 128, 3);
      await window.read(0, 10);
      const read = window.handle.read.bind(window.handle);
      let reading = 0;
      let most = 0;
      window.handle.read = async (...args: Parameters<typeof read>) => {
        most = Math.max(most, ++reading);
        try {
          return await read(...args);
        } finally {
          reading--;
        }
      };
      expect(await mpegDuration(window)).toBeCloseTo((12_000 * 1152) / 44100, 9);
      // One read a probe, all on their way at once, and nothing read again.
      expect(most).toBe(12);
      expect(window.reads).toBe(2 + 12);
    } finally {
      await window.close();
    }
  });

  it('counts every frame of a stream whose bit rate changes', async () => {
    // 128 and 160 kbit/s in runs of three frames: every probe sees both.
    const runs = Array.from({ length: 600 }, (_, i) =>
      cbrStream(3, i % 2 === 0 ? MPEG1_128K : [0xff, 0xfb, 0xa0, 0x00]),
    );
    const data = Buffer.concat([...runs, trailingTags()]);
    expect(await mpegDuration(await tempFile('vbr.mp3', data))).toBeCloseTo((1800 * 1152) / 44100, 9);
  });
});

describe('adtsDuration', () => {
  it('counts 1024 samples per frame at the stream’s rate', async () => {
    // AAC LC, 22.05 kHz (index 7), mono; frame length 20 bytes, one raw block.
    const frame = Buffer.alloc(20);
    Buffer.from([0xff, 0xf1, 0x5c, 0x40, 0x02, 0x9f, 0xfc]).copy(frame);
    const file = await tempFile('a.aac', Buffer.concat(Array.from({ length: 50 }, () => frame)));
    expect(await adtsDuration(file)).toBeCloseTo((50 * 1024) / 22050, 9);
  });
});
