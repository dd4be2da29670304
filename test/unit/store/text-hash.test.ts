import { describe, expect, it } from 'vitest';
import { bytesHash, textHash } from '../../../server/store/text-hash.js';

describe('text hash', () => {
  it('gives an ASCII id the same hash from its bytes as from its string', () => {
    for (const id of ['', 't1', '0123456789abcdef', 'x'.repeat(300)]) {
      const bytes = Buffer.from(`..${id}..`, 'latin1');
      expect(bytesHash(bytes, 2, 2 + id.length)).toBe(textHash(id));
    }
  });

  it('spreads ids that differ by one character', () => {
    const hashes = new Set(Array.from({ length: 1000 }, (_, i) => textHash(`t${i}`) & 0xfff));
    expect(hashes.size).toBeGreaterThan(700);
  });
});
