import { describe, expect, it } from 'vitest';
import { parseByteRange } from '../../../server/http/byte-range.js';

describe('parseByteRange', () => {
  it('reads one range of bytes: closed, open-ended, suffix', () => {
    expect(parseByteRange('bytes=0-0', 100)).toEqual({ start: 0, end: 0 });
    expect(parseByteRange('bytes=99-99', 100)).toEqual({ start: 99, end: 99 });
    expect(parseByteRange('bytes=10-', 100)).toEqual({ start: 10, end: 99 });
    expect(parseByteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange(' Bytes = 5 - 6 ', 100)).toEqual({ start: 5, end: 6 });
  });

  it('cuts ranges at the end of the file', () => {
    expect(parseByteRange('bytes=50-1000', 100)).toEqual({ start: 50, end: 99 });
    expect(parseByteRange('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=0-123456789012345678901234', 100)).toEqual({ start: 0, end: 99 });
  });

  it('finds ranges past the end unsatisfiable', () => {
    expect(parseByteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=100-200', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-5', 0)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=123456789012345678901234-', 100)).toBe('unsatisfiable');
  });

  it('ignores what it does not serve: no header, several ranges, other units, nonsense', () => {
    for (const header of [
      null,
      'bytes=0-1,5-6',
      'items=0-1',
      'bytes=5-2',
      'bytes=-',
      'bytes=a-b',
      'bytes=1.5-2',
      '',
    ])
      expect(parseByteRange(header, 100), String(header)).toBeNull();
  });
});
