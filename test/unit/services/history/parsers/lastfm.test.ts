import { describe, expect, it } from 'vitest';
import { parseLastfmDate } from '../../../../../server/services/history/parsers/lastfm.js';

describe('parseLastfmDate', () => {
  it('reads the export tools’ date in UTC, Unix seconds and ISO', () => {
    expect(parseLastfmDate('31 Jan 2021 14:03')).toBe(Date.UTC(2021, 0, 31, 14, 3));
    expect(parseLastfmDate('1612101780')).toBe(1612101780_000);
    expect(parseLastfmDate('2021-01-31 14:03:00')).toBe(Date.UTC(2021, 0, 31, 14, 3));
    expect(parseLastfmDate('31 Feb 2021 14:03')).toBeNull();
    expect(parseLastfmDate('yesterday')).toBeNull();
  });
});
