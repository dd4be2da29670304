/**
 * Log ids made by the server are 22 base64url characters (16 bytes). Stored packed, they cost 16
 * bytes a log instead of a string each, which matters at a million logs.
 */
export const ID_BYTES = 16;

const BASE64URL = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < alphabet.length; i += 1) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/**
 * Packs a server-made log id into `out` at `offset`; false for any other shape, which the caller
 * then keeps as a string.
 */
export function packId(id: string, out: Uint8Array, offset: number): boolean {
  if (id.length !== 22) return false;
  let o = offset;
  for (let i = 0; i < 20; i += 4) {
    const a = sextet(id, i);
    const b = sextet(id, i + 1);
    const c = sextet(id, i + 2);
    const d = sextet(id, i + 3);
    if ((a | b | c | d) < 0) return false;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  const a = sextet(id, 20);
  const b = sextet(id, 21);
  // The last character carries 2 bits; the other 4 must be zero or the id would not round-trip.
  if ((a | b) < 0 || (b & 15) !== 0) return false;
  out[o] = (a << 2) | (b >> 4);
  return true;
}

/** The 6 bits character `i` of `id` stands for; -1 for a character outside base64url. */
function sextet(id: string, i: number): number {
  const c = id.charCodeAt(i);
  return c < 128 ? BASE64URL[c]! : -1;
}

/** The id packed at `offset` of `bytes` by `packId`. */
export function unpackId(bytes: Uint8Array, offset: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + offset, ID_BYTES).toString('base64url');
}
