import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseFile } from 'music-metadata';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtures } from '../../../scripts/make-fixtures.js';
import { commentPictures, oggPictures } from '../../../server/library/ogg-pictures.js';
import { oggPage } from '../../support/ogg.js';

/** A 32-bit length or number: big-endian in a FLAC picture block, little-endian in Vorbis comments. */
function u32(n: number, order: 'BE' | 'LE'): Buffer {
  const b = Buffer.alloc(4);
  if (order === 'BE') b.writeUInt32BE(n);
  else b.writeUInt32LE(n);
  return b;
}

function pictureBlock(type: number, mime: string, data: Buffer): Buffer {
  const be = (n: number) => u32(n, 'BE');
  const description = Buffer.from('a description');
  return Buffer.concat([
    be(type),
    be(mime.length),
    Buffer.from(mime, 'latin1'),
    be(description.length),
    description,
    be(600),
    be(600),
    be(24),
    be(0),
    be(data.length),
    data,
  ]);
}

function comments(fields: string[], magic = '\x03vorbis'): Buffer {
  const le = (n: number) => u32(n, 'LE');
  const vendor = Buffer.from('test vendor');
  return Buffer.concat([
    Buffer.from(magic, 'latin1'),
    le(vendor.length),
    vendor,
    le(fields.length),
    ...fields.flatMap((f) => [le(Buffer.byteLength(f)), Buffer.from(f)]),
  ]);
}

const picture = (type: number, mime: string, data: Buffer): string =>
  `METADATA_BLOCK_PICTURE=${pictureBlock(type, mime, data).toString('base64')}`;

describe('commentPictures', () => {
  it('decodes every picture field of a Vorbis or Opus comment header, in order', () => {
    const front = Buffer.alloc(3000, 1);
    const back = Buffer.alloc(10, 2);
    const fields = [
      'TITLE=Song',
      picture(3, 'image/jpeg', front),
      'ARTIST=Band',
      picture(4, 'image/png', back),
    ];
    for (const magic of ['\x03vorbis', 'OpusTags']) {
      const found = commentPictures(comments(fields, magic));
      expect(found.map((p) => [p.type, p.mime, p.data.length])).toEqual([
        [3, 'image/jpeg', 3000],
        [4, 'image/png', 10],
      ]);
      expect(found[0]!.data.equals(front)).toBe(true);
    }
  });

  it('skips a picture block cut short and a field without pictures', () => {
    const cut = pictureBlock(3, 'image/jpeg', Buffer.alloc(100)).subarray(0, 60).toString('base64');
    expect(commentPictures(comments([`metadata_block_picture=${cut}`, 'GENRE=Jazz']))).toEqual([]);
  });
});

describe('oggPictures', () => {
  it('joins a comment header spread over several pages', async () => {
    const cover = Buffer.alloc(60_000, 7);
    const packet = comments([picture(3, 'image/jpeg', cover)]);
    const head = Buffer.from('\x01vorbis\0\0\0\0\x02\x44\xac\0\0', 'latin1');
    // 255 segments of 255 bytes a page at most: the packet goes on in the next page.
    const split = [packet.subarray(0, 255 * 255), packet.subarray(255 * 255)];
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'melon-ogg-pictures-')), 'a.ogg');
    await writeFile(
      file,
      Buffer.concat([
        oggPage({ serial: 1, granule: 0n, packets: [head], first: true }),
        oggPage({ serial: 1, granule: -1n, packets: [split[0]!], open: true }),
        oggPage({ serial: 1, granule: 0n, packets: [split[1]!, Buffer.from('\x05vorbis')] }),
      ]),
    );
    const found = await oggPictures(file);
    expect(found).toHaveLength(1);
    expect(found[0]!.data.equals(cover)).toBe(true);
  });

  describe('on files tagged by node-taglib-sharp', () => {
    let files: string[];
    beforeAll(async () => {
      const dir = path.join(await ensureFixtures(), 'library', 'Aurora Lane', 'Fixture Album');
      files = (await readdir(dir)).filter((f) => /\.(ogg|opus)$/.test(f)).map((f) => path.join(dir, f));
    }, 60_000);

    it('lists the pictures music-metadata lists, with the same bytes', async () => {
      expect(files.length).toBe(2);
      for (const file of files) {
        const expected = (await parseFile(file)).common.picture ?? [];
        const found = await oggPictures(file);
        expect(expected.length).toBeGreaterThan(0);
        expect(found.map((p) => p.mime)).toEqual(expected.map((p) => p.format));
        found.forEach((p, i) => expect(Buffer.from(expected[i]!.data).equals(p.data)).toBe(true));
      }
    });
  });
});
