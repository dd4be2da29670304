import { describe, expect, it } from 'vitest';
import { isValidId } from '../../../server/domain/ids.js';
import { albumId, artistId, trackId } from '../../../server/domain/library-ids.js';

describe('library ids', () => {
  it('are valid ids, the same for the same input and different across kinds', () => {
    const ids = [trackId('/music/a.mp3'), artistId('a.mp3'), albumId('a.mp3', '')];
    for (const id of ids) expect(isValidId(id)).toBe(true);
    expect(new Set(ids).size).toBe(3);
    expect(trackId('/music/a.mp3')).toBe(ids[0]);
  });

  it('ignore the case and surrounding spaces of names, but not of paths', () => {
    expect(artistId('  Aurora LANE ')).toBe(artistId('aurora lane'));
    expect(albumId('Fixture Album', 'Aurora Lane')).toBe(albumId(' fixture album', 'AURORA LANE '));
    expect(albumId('Fixture Album', 'Aurora Lane')).not.toBe(albumId('Fixture Album', 'The Static'));
    expect(trackId('/music/A.mp3')).not.toBe(trackId('/music/a.mp3'));
  });
});
