import { describe, expect, it } from 'vitest';
import { lrcPathOf, parseLrc } from '../../../server/library/lyrics.js';

describe('parseLrc', () => {
  it('reads stamps of minutes, seconds and hundredths or thousandths, sorted, with the offset', () => {
    const parsed = parseLrc(
      '\uFEFF[ti:Song]\r\n[offset:-120]\n[00:10.5]b\n[00:02.25]a\n[01:00.125][01:30]c\nno stamp\n',
    );
    expect(parsed).toEqual({
      synced: true,
      offsetMs: -120,
      lines: [
        { startMs: 2250, text: 'a' },
        { startMs: 10_500, text: 'b' },
        { startMs: 60_125, text: 'c' },
        { startMs: 90_000, text: 'c' },
      ],
    });
  });

  it('keeps plain text as unsynced lines, blank lines inside kept and trailing ones dropped', () => {
    expect(parseLrc('One\n\nTwo\n\n')).toEqual({
      synced: false,
      offsetMs: 0,
      lines: [
        { startMs: null, text: 'One' },
        { startMs: null, text: '' },
        { startMs: null, text: 'Two' },
      ],
    });
  });

  it('finds the .lrc of the same name beside the audio', () => {
    expect(lrcPathOf('/music/A/01 - Song.flac')).toBe('/music/A/01 - Song.lrc');
  });
});
