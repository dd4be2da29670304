import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';

/** The expected answers, one file per method, case and format (`getAlbum.xml`, `getAlbum.json`). */
export const GOLDEN_DIR = join(import.meta.dirname, 'golden');

/** `UPDATE_GOLDEN=1` rewrites the files from the live answers instead of comparing. */
export const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';

/** A moment no answer really gives: what every varying date becomes (still a valid xs:dateTime). */
const SOME_DATE = '2000-01-01T00:00:00.000Z';

/**
 * The attributes whose values change from run to run and say nothing about the answer's shape: the
 * server's own version, and the moments a record was made or touched (the scan's file times, the
 * test's clock). Everything else (ids, names, counts, order) must be the same on every run. The
 * placeholders keep each value's type, so a golden XML file still validates against the XSD.
 */
const VARYING: Record<string, string> = {
  serverVersion: '0.0.0-golden',
  created: SOME_DATE,
  changed: SOME_DATE,
  starred: SOME_DATE,
  played: SOME_DATE,
  lastScan: SOME_DATE,
  lastModified: SOME_DATE,
};

/**
 * The one place a live answer is made comparable: each VARYING attribute's value is replaced by its
 * placeholder; each id of `ids` (a track's id hashes its absolute path, which is a fresh temp folder
 * per run; a playlist's id is random) by its stable name, wherever it appears (`coverArt`'s `tr-…`,
 * a queue's `current`); JSON is indented by two spaces, and XML gets one element per line (Melon
 * writes no mixed content, so the line breaks only add ignorable whitespace between elements). The
 * files are what this returns, never hand-edited.
 */
export function normaliseAnswer(
  live: string,
  format: 'xml' | 'json',
  ids: ReadonlyMap<string, string> = new Map(),
): string {
  let text = live;
  for (const [id, name] of ids) text = text.split(id).join(name);
  if (format === 'json') {
    const replace = (_key: string, value: unknown): unknown => value;
    const walk = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(walk);
      if (value === null || typeof value !== 'object') return value;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value))
        out[key] = key in VARYING && typeof item !== 'object' ? VARYING[key] : walk(item);
      return out;
    };
    return JSON.stringify(walk(JSON.parse(text)), replace, 2) + '\n';
  }
  let xml = text;
  for (const [name, placeholder] of Object.entries(VARYING))
    xml = xml.replace(new RegExp(` ${name}="[^"]*"`, 'g'), ` ${name}="${placeholder}"`);
  return xml.replace(/>\s*</g, '>\n<').trimEnd() + '\n';
}

/** Compares the normalised answer with its golden file, or rewrites the file under UPDATE_GOLDEN. */
export async function expectGolden(name: string, normalised: string): Promise<void> {
  const file = join(GOLDEN_DIR, name);
  if (UPDATE_GOLDEN) {
    await writeFile(file, normalised);
    return;
  }
  const expected = await readFile(file, 'utf8').catch(() => {
    throw new Error(
      `no golden file ${name}: run UPDATE_GOLDEN=1 npx vitest run test/subsonic/golden.test.ts`,
    );
  });
  expect(normalised, `${name} differs from its golden file`).toBe(expected);
}
