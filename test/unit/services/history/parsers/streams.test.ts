import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  byteJsonArrayItems,
  byteLines,
  fileLines,
  jsonArrayItems,
  MAX_ENTRY_CHARS,
  streamReader,
} from '../../../../../server/services/history/parsers/streams.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'melon-streams-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function items(text: string) {
  const path = join(dir, `f${Math.random()}.json`);
  await writeFile(path, text);
  const out: unknown[] = [];
  for await (const item of jsonArrayItems(path))
    out.push('text' in item ? JSON.parse(item.text) : 'too long');
  return out;
}

describe('jsonArrayItems', () => {
  it('splits a JSON array into its elements, strings with brackets, commas and escapes included', async () => {
    const value = [{ a: '[x], {y}', b: [1, [2]] }, 'q"uo\\"te', 3, null, { nested: { deep: ['}'] } }];
    expect(await items(JSON.stringify(value, null, 2))).toEqual(value);
    expect(await items('\uFEFF [ ] ')).toEqual([]);
  });

  it('tells how far it has read: where each element ends', async () => {
    const path = join(dir, `p${Math.random()}.json`);
    await writeFile(path, '[{"a":1},{"b":2}]\n');
    const progress = { size: 0, read: 0 };
    const seen: number[] = [];
    for await (const item of jsonArrayItems(path, progress)) if ('text' in item) seen.push(progress.read);
    expect(progress.size).toBe(18);
    expect(seen).toEqual([8, 16]);
  });

  it('reports an element longer than the limit without keeping it, and refuses what is not an array', async () => {
    const long = 'x'.repeat(MAX_ENTRY_CHARS + 10);
    expect(await items(JSON.stringify([{ a: 1 }, { long }, { b: 2 }]))).toEqual([
      { a: 1 },
      'too long',
      { b: 2 },
    ]);
    await expect(items('{"not": "an array"}')).rejects.toThrow(/not a JSON array/);
    await expect(items('[{"a": 1}, {"b":')).rejects.toThrow(/not closed/);
  });
});

async function lines(content: string | Buffer) {
  const path = join(dir, `l${Math.random()}.txt`);
  await writeFile(path, content);
  const out: (string | null)[] = [];
  for await (const line of fileLines(path)) out.push(line);
  return out;
}

describe('fileLines', () => {
  it('splits at LF, CRLF and a lone CR as readline does, and drops a BOM', async () => {
    expect(await lines('\uFEFFa\nb\r\nc\rd')).toEqual(['a', 'b', 'c', 'd']);
    expect(await lines('a\n\n\r\nb\n')).toEqual(['a', '', '', 'b']);
    expect(await lines('')).toEqual([]);
    expect(await lines('\uFEFF')).toEqual(['']);
  });

  it('keeps lines longer than a read whole, multi-byte characters included', async () => {
    // Longer than one read (64 KiB), each split across reads at a different byte.
    const long = ['é', '😀', 'x'].map((c, i) => c.repeat(30_000 + i));
    expect((await lines(long.join('\r\n'))).map((line) => line === long.shift())).toEqual([true, true, true]);
    // A CRLF split across two reads is one line end.
    const before = 'y'.repeat(64 * 1024 - 1);
    expect((await lines(`${before}\r\nz`)).map((line) => line?.length)).toEqual([before.length, 1]);
  });

  it('tells how far it has read: the bytes before the next line, the whole file at the end', async () => {
    const path = join(dir, `p${Math.random()}.txt`);
    await writeFile(path, 'ab\r\ncdé\n\nf');
    const progress = { size: 0, read: 0 };
    const seen: number[] = [];
    for await (const line of fileLines(path, progress)) seen.push(line === null ? -1 : progress.read);
    expect(progress.size).toBe(11); // é is two bytes
    expect(seen).toEqual([4, 9, 10, 11]);
  });

  it('gives null for a line too long to keep, and goes on with the next', async () => {
    // Three bytes a character at most: a line of more bytes than that allows is too long.
    const tooLong = 'x'.repeat(3 * MAX_ENTRY_CHARS + 1);
    const kept = 'y'.repeat(3 * MAX_ENTRY_CHARS);
    const read = await lines(`a\n${tooLong}\nb\n${kept}\n${tooLong}`);
    expect(read.map((line) => line?.length ?? null)).toEqual([1, null, 1, kept.length, null]);
  });
});

/** The bytes as a stream of chunks cut at every `size` bytes (an entry of a ZIP as it is inflated). */
function chunked(bytes: Buffer, size: number): AsyncIterable<Buffer> {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return (async function* () {
    for (const chunk of chunks) yield await Promise.resolve(chunk);
  })();
}

describe('streamReader', () => {
  it('gives the lines and array elements a file gives, however the stream is cut', async () => {
    const text = `\uFEFFé😀\r\n${'x'.repeat(70_000)}\rlast é\n`;
    const json = JSON.stringify([{ a: 'é😀' }, 'q"uo\\"te', [1, 2], 'z'.repeat(40_000)]);
    for (const size of [1, 3, 4096, 65_537]) {
      const out: (string | null)[] = [];
      for await (const line of byteLines(streamReader(chunked(Buffer.from(text), size)))) out.push(line);
      expect(out).toEqual(await lines(text));
      const elements: unknown[] = [];
      for await (const item of byteJsonArrayItems(streamReader(chunked(Buffer.from(json), size))))
        elements.push('text' in item ? JSON.parse(item.text) : 'too long');
      expect(elements).toEqual(JSON.parse(json));
    }
  });
});
