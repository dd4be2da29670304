import { describe, expect, it } from 'vitest';
import { ByteInterner, hashBytes } from '../../../server/store/byte-interner.js';

const keyOf = (interner: ByteInterner, text: string, pad = 0) => {
  // The bytes somewhere inside a larger buffer, as a line's field is.
  const buf = Buffer.concat([Buffer.alloc(pad, 0x2c), Buffer.from(text), Buffer.alloc(3, 0x22)]);
  return interner.key(buf, pad, buf.length - 3, hashBytes(buf, pad, buf.length - 3));
};

describe('numbering strings by their bytes', () => {
  it('gives the same bytes the same number wherever they stand, and each string once', () => {
    const interner = new ByteInterner();
    expect(keyOf(interner, 'Phone')).toBe(0);
    expect(keyOf(interner, 'Küchenradio ♫', 5)).toBe(1);
    expect(keyOf(interner, 'Phone', 17)).toBe(0);
    expect(keyOf(interner, '')).toBe(2);
    expect(interner.keyOf('Küchenradio ♫')).toBe(1);
    expect(interner.values).toEqual(['Phone', 'Küchenradio ♫', '']);
  });

  it('tells apart thousands of strings, prefixes and strings whose hashes collide in the table', () => {
    const interner = new ByteInterner();
    const texts = Array.from({ length: 5000 }, (_, i) => `device ${i}`).concat(['device', 'device 1 ']);
    texts.forEach((text, i) => expect(keyOf(interner, text, i % 7)).toBe(i));
    texts.forEach((text, i) => expect(interner.keyOf(text)).toBe(i));
    expect(interner.count).toBe(texts.length);
  });

  it('keeps apart bytes that are not UTF-8, each decoded as the replacement character', () => {
    const interner = new ByteInterner();
    const a = Buffer.from([0xff]);
    const b = Buffer.from([0xfe]);
    expect(interner.key(a, 0, 1, hashBytes(a, 0, 1))).toBe(0);
    expect(interner.key(b, 0, 1, hashBytes(b, 0, 1))).toBe(1);
    expect(interner.values).toEqual(['\ufffd', '\ufffd']);
  });

  it('keeps a name cut in the middle of an emoji as it is, apart from the replacement character', () => {
    // A device name cut at 128 characters may end in half a surrogate pair; the log writes it
    // escaped, and the slow reader hands it over as a string.
    const interner = new ByteInterner();
    const cut = 'Phone \ud83c';
    expect(interner.keyOf(cut)).toBe(0);
    expect(interner.keyOf('Phone \ufffd')).toBe(1);
    expect(interner.keyOf(cut)).toBe(0);
    // Enough others to grow the table: the cut name keeps its number and is not found by bytes.
    for (let i = 0; i < 200; i++) expect(interner.keyOf(`device ${i}`)).toBe(i + 2);
    expect(interner.keyOf(cut)).toBe(0);
    expect(keyOf(interner, '')).toBe(202);
    expect(interner.values[0]).toBe(cut);
  });
});
