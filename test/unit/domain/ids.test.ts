import { describe, expect, it } from 'vitest';
import { isValidId, MIX_ID_PREFIX, newCollectionId } from '../../../server/domain/ids.js';

describe('newCollectionId', () => {
  it("draws again when an id would read as a mix's, so Subsonic can still open the playlist", () => {
    const drawn = ['mix-abcdefghijklmnopqr', 'mix-0123456789abcdefgh', 'Zq3_abcdefghijklmnopqr'];
    expect(newCollectionId(() => drawn.shift()!)).toBe('Zq3_abcdefghijklmnopqr');
    expect(drawn).toEqual([]);
  });

  it('makes valid ids that never start with the mix prefix', () => {
    for (let i = 0; i < 1000; i += 1) {
      const id = newCollectionId();
      expect(isValidId(id)).toBe(true);
      expect(id.startsWith(MIX_ID_PREFIX)).toBe(false);
    }
  });
});
