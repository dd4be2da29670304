import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { oggDuration } from '../../../server/library/ogg-duration.js';
import { oggPage } from '../../support/ogg.js';

const SERIAL = 0x1234;

function opusHead(preSkip: number): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1; // version
  head[9] = 2; // channels
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(44100, 12); // the input's rate: not the decoder's
  return head;
}

function vorbisHead(rate: number): Buffer {
  const head = Buffer.alloc(30);
  head.write('\x01vorbis', 0, 'latin1');
  head[11] = 2; // channels
  head.writeUInt32LE(rate, 12);
  return head;
}

/** A stream of `bodies` pages of audio after the head, the granule growing by `step` a page. */
function stream(head: Buffer, pages: number, bodyBytes: number, step: number): Buffer[] {
  const out = [oggPage({ serial: SERIAL, granule: 0n, packets: [head], first: true })];
  for (let n = 1; n <= pages; n++)
    out.push(oggPage({ serial: SERIAL, granule: BigInt(n * step), packets: [Buffer.alloc(bodyBytes, n)] }));
  return out;
}

async function tempFile(name: string, data: Buffer): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'melon-ogg-')), name);
  await writeFile(file, data);
  return file;
}

describe('oggDuration', () => {
  it('reads an Opus file’s length from its last page, less the pre-skip, at 48 kHz', async () => {
    const file = await tempFile('a.opus', Buffer.concat(stream(opusHead(312), 50, 4000, 48000)));
    expect(await oggDuration(file)).toBeCloseTo((50 * 48000 - 312) / 48000, 9);
  });

  it('reads a Vorbis file’s length at its own sample rate', async () => {
    const file = await tempFile('a.ogg', Buffer.concat(stream(vorbisHead(22050), 20, 3000, 22050)));
    expect(await oggDuration(file)).toBeCloseTo(20, 9);
  });

  it('finds a last page that starts further from the end than one read', async () => {
    // Pages this long put the last header ~40 KiB from the end, past the first 16 KiB chunk.
    const file = await tempFile('b.ogg', Buffer.concat(stream(vorbisHead(44100), 5, 40_000, 44100)));
    expect(await oggDuration(file)).toBeCloseTo(5, 9);
  });

  it('ignores a last page cut short by the end of the file', async () => {
    const pages = stream(vorbisHead(44100), 6, 3000, 44100);
    const cut = pages[6]!.subarray(0, pages[6]!.length - 100);
    const file = await tempFile('c.ogg', Buffer.concat([...pages.slice(0, 6), cut]));
    expect(await oggDuration(file)).toBeCloseTo(5, 9);
  });

  it('ignores pages on which no packet ends and pages of another stream', async () => {
    const pages = stream(vorbisHead(44100), 3, 3000, 44100);
    const other = oggPage({ serial: SERIAL + 1, granule: 999_999_999n, packets: [Buffer.alloc(50)] });
    const open = oggPage({ serial: SERIAL, granule: -1n, packets: [Buffer.alloc(255 * 3)], open: true });
    const file = await tempFile('d.ogg', Buffer.concat([...pages, other, open]));
    expect(await oggDuration(file)).toBeCloseTo(3, 9);
  });

  it('leaves other codecs in Ogg (FLAC, Speex) to the full reader', async () => {
    const flac = Buffer.from('\x7fFLAC\x01\x00\x00\x01fLaC', 'latin1');
    const file = await tempFile('e.oga', Buffer.concat(stream(flac, 3, 100, 44100)));
    expect(await oggDuration(file)).toBeNull();
  });
});
