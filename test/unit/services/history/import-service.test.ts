import { describe, expect, it } from 'vitest';
import { playsToCome } from '../../../../server/services/history/import-service.js';

describe('playsToCome', () => {
  it('estimates the entries left from the bytes left, at the rate listens added plays', () => {
    // 1000 entries in the first 200 KB of 200 MB: ~999,000 left, all new.
    expect(playsToCome({ size: 200_000_000, read: 200_000 }, 1000, 1000, 1000)).toBe(999_000);
    // Half of them added (the others duplicates or unmatched).
    expect(playsToCome({ size: 200_000_000, read: 200_000 }, 1000, 1000, 500)).toBe(499_500);
    // A resumed job: entries counted from the file's start, the rate from this run's listens.
    expect(playsToCome({ size: 2_000_000, read: 1_000_000 }, 5000, 1000, 1000)).toBe(5000);
  });

  it('expects nothing of a re-import, before anything was read, or at the end', () => {
    expect(playsToCome({ size: 200_000_000, read: 200_000 }, 1000, 1000, 0)).toBe(0);
    expect(playsToCome({ size: 200_000_000, read: 0 }, 0, 0, 0)).toBe(0);
    expect(playsToCome({ size: 1000, read: 1000 }, 10, 10, 10)).toBe(0);
  });
});
