import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseFile, parseFromTokenizer } from 'music-metadata';
import { EndOfStreamError, fromFile, type ITokenizer } from 'strtok3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtures, FIXTURE_ALBUM_DIR, FORMATS_DIR } from '../../../scripts/make-fixtures.js';
import { withWindow } from '../../../server/library/file-window.js';
import { WindowTokenizer } from '../../../server/library/window-tokenizer.js';

let root: string;
let dir: string;
beforeAll(async () => {
  root = await ensureFixtures();
  dir = await mkdtemp(path.join(os.tmpdir(), 'melon-tokenizer-'));
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Stands for music-metadata's sample-size token: this reader must decode it without calling get. */
class StszAtom {
  constructor(readonly len: number) {}
  get(): never {
    throw new Error('decoded entry by entry');
  }
}

describe('WindowTokenizer', () => {
  it('reads every format to the same tags and format as music-metadata reading the file itself', async () => {
    const album = path.join(root, FIXTURE_ALBUM_DIR);
    const files = [
      ...(await readdir(album)).filter((f) => !f.endsWith('.lrc')).map((f) => path.join(album, f)),
      ...['aac.m4a', 'alac.m4a', 'mp3-vbr.mp3', 'vorbis-long.ogg'].map((f) =>
        path.join(root, FORMATS_DIR, f),
      ),
    ];
    for (const file of files) {
      const own = await parseFile(file);
      const windowed = await withWindow(file, (window) =>
        parseFromTokenizer(WindowTokenizer.of(window, file), {}),
      );
      expect(windowed.format, file).toEqual(own.format);
      expect(windowed.common, file).toEqual(own.common);
    }
  });

  it('decodes an MP4 sample-size table natively, as music-metadata would', async () => {
    const sizes = [371, 402, 0x7fff_ffff, 9];
    const table = Buffer.alloc(12 + sizes.length * 4);
    table.writeUInt32BE(0x00_000001, 0); // version 0, flags 1
    table.writeInt32BE(sizes.length, 8);
    sizes.forEach((size, i) => table.writeInt32BE(size, 12 + i * 4));
    const file = path.join(dir, 'stsz.bin');
    await writeFile(file, Buffer.concat([Buffer.from('head'), table]));
    const decoded = await withWindow(file, (window) =>
      WindowTokenizer.of(window, file).readToken(new StszAtom(table.length), 4),
    );
    expect(decoded).toEqual({
      version: 0,
      flags: 1,
      sampleSize: 0,
      numberOfEntries: 4,
      entries: Int32Array.from(sizes),
    });
  });

  it('leaves a sample-size table whose count does not match its length to music-metadata', async () => {
    const table = Buffer.alloc(12 + 8);
    table.writeInt32BE(3, 8);
    const file = path.join(dir, 'stsz-short.bin');
    await writeFile(file, table);
    const read = withWindow(file, (window) =>
      WindowTokenizer.of(window, file).readToken(new StszAtom(table.length), 0),
    );
    await expect(read).rejects.toThrow('decoded entry by entry');
  });

  it("answers reads and peeks from the window's bytes as strtok3 answers them from the file", async () => {
    const bytes = Buffer.alloc(300 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 8)) & 0xff;
    const file = path.join(dir, 'bytes.bin');
    await writeFile(file, bytes);
    const u32 = { len: 4, get: (b: Uint8Array, at: number) => Buffer.from(b).readUInt32BE(at) };
    const run = async (tokenizer: ITokenizer) => {
      const seen: unknown[] = [];
      const note = async (value: Promise<unknown>) =>
        seen.push(
          await value.then(
            (v) => v,
            (err: unknown) => (err instanceof EndOfStreamError ? 'end' : err),
          ),
        );
      await note(tokenizer.readToken(u32));
      await note(tokenizer.peekToken(u32, 100));
      await note(tokenizer.readNumber(u32));
      await note(tokenizer.peekNumber(u32));
      // Far from the first window, then back near the start, then at the end of the file.
      await note(tokenizer.readToken(u32, 200 * 1024));
      await note(tokenizer.peekToken(u32, 64));
      const buffer = new Uint8Array(10);
      await note(tokenizer.readBuffer(buffer, { position: bytes.length - 4, mayBeLess: true }));
      seen.push([...buffer], tokenizer.position);
      await note(tokenizer.readToken(u32, bytes.length - 2));
      await note(tokenizer.peekBuffer(buffer, { position: bytes.length - 6 }));
      await note(tokenizer.readBuffer(buffer, { position: 16, length: 8 }));
      seen.push([...buffer], tokenizer.position);
      return seen;
    };
    const own = await fromFile(file);
    const expected = await run(own).finally(() => own.close());
    const windowed = await withWindow(file, (window) => run(WindowTokenizer.of(window, file)));
    expect(windowed).toEqual(expected);
    expect(expected).toContain('end');
  });
});
