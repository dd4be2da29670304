import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** The most text one entry of an import may have; longer is a refused entry, never a huge string. */
export const MAX_ENTRY_CHARS = 64 * 1024;

/** A file's lines, read as a stream (a 300 MB export is never whole in memory). */
export async function* fileLines(path: string): AsyncGenerator<string> {
  const input = createReadStream(path, { encoding: 'utf8', highWaterMark: 1024 * 1024 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let first = true;
  for await (const line of lines) {
    yield first ? line.replace(/^\uFEFF/u, '') : line;
    first = false;
  }
}

/** The first non-blank character of a file (to tell a JSON array from JSON lines). */
export async function firstChar(path: string): Promise<string | undefined> {
  const input = createReadStream(path, { encoding: 'utf8', start: 0, end: 64 * 1024 });
  try {
    for await (const chunk of input) {
      const found = /[^\s\uFEFF]/u.exec(chunk as string);
      if (found) return found[0];
    }
    return undefined;
  } finally {
    input.destroy();
  }
}

/** One element of a streamed JSON array: its text, or a note that it was too long (and skipped). */
export type ArrayItem = { text: string } | { tooLong: true };

export class NotAJsonArrayError extends Error {}

/**
 * The top-level elements of a JSON array file, each as its own text, read incrementally: a small
 * state machine over the characters (depth, inside a string, after a backslash) that cuts the
 * array at its top-level commas. Each element is then parsed on its own, so one bad element is one
 * refused entry and memory holds one element at a time. (A streaming JSON dependency would do the
 * same with more code; this is all the imports need.)
 */
export async function* jsonArrayItems(path: string): AsyncGenerator<ArrayItem> {
  const input = createReadStream(path, { encoding: 'utf8', highWaterMark: 1024 * 1024 });
  let opened = false;
  let closed = false;
  let depth = 0; // inside the current element: nesting of {} and []
  let inElement = false;
  let inString = false;
  let escaped = false;
  let parts: string[] = [];
  let length = 0;
  let tooLong = false;
  const keep = (text: string) => {
    if (tooLong) return;
    length += text.length;
    if (length > MAX_ENTRY_CHARS) {
      tooLong = true;
      parts = [];
    } else parts.push(text);
  };
  const finish = (): ArrayItem => {
    const item: ArrayItem = tooLong ? { tooLong: true } : { text: parts.join('') };
    parts = [];
    length = 0;
    tooLong = false;
    inElement = false;
    return item;
  };
  for await (const chunk of input as AsyncIterable<string>) {
    const out: ArrayItem[] = [];
    let start = inElement ? 0 : -1;
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk[i]!;
      if (closed) {
        if (!/\s/u.test(c)) throw new NotAJsonArrayError('Text after the end of the JSON array');
        continue;
      }
      if (!opened) {
        if (c === '[') opened = true;
        else if (!/[\s\uFEFF]/u.test(c)) throw new NotAJsonArrayError('The file is not a JSON array');
        continue;
      }
      if (inElement) {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === '\\') escaped = true;
          else if (c === '"') inString = false;
          continue;
        }
        if (c === '"') inString = true;
        else if (c === '{' || c === '[') depth += 1;
        else if ((c === '}' || c === ']') && depth > 0) depth -= 1;
        else if ((c === ',' || c === ']') && depth === 0) {
          keep(chunk.slice(start, i));
          out.push(finish());
          start = -1;
          if (c === ']') closed = true;
        }
        continue;
      }
      if (/\s/u.test(c) || c === ',') continue;
      if (c === ']') {
        closed = true;
        continue;
      }
      inElement = true;
      start = i;
      depth = 0;
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth = 1;
    }
    if (inElement && start >= 0) keep(chunk.slice(start));
    yield* out;
  }
  if (!opened || !closed) throw new NotAJsonArrayError('The JSON array is not closed');
}
