import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonArrayItems, MAX_ENTRY_CHARS } from '../../../../../server/services/history/parsers/streams.js';

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
