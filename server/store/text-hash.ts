/**
 * The hash of a string that lookups by id spread their slots with (id-table.ts): a multiply by 31
 * per UTF-16 unit, mixed at the end. `bytesHash` gives the same number from a string's bytes where
 * each byte is one of its units (ASCII), so a table of ids held as bytes (text-column.ts) is built
 * without making each id's string.
 */
export function textHash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return mix(h);
}

/** textHash of the string whose units are `bytes[start, end)`, one a byte. */
export function bytesHash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + bytes[i]!) | 0;
  return mix(h);
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x45d9f3b);
  return h ^ (h >>> 16);
}
