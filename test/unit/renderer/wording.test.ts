import { describe, expect, it } from 'vitest';
import { keyUsage, scanSummary } from '../../../renderer/wording.js';

describe('the library scan summary', () => {
  const done = { running: false, filesSeen: 12, filesTotal: 12 };

  it('says every file was read, never "except 0 files"', () => {
    expect(scanSummary({ ...done, problemCount: 0 })).toBe('Every file was read.');
  });

  it('counts the files it could not read, in words', () => {
    expect(scanSummary({ ...done, problemCount: 1 })).toBe('Every file was read except 1 file.');
    expect(scanSummary({ ...done, problemCount: 3 })).toBe('Every file was read except 3 files.');
  });

  it('shows the progress while a scan runs', () => {
    expect(scanSummary({ running: true, filesSeen: 4, filesTotal: 1200, problemCount: 0 })).toBe(
      'Looking through the music folders: 4 of 1,200 files…',
    );
  });
});

describe('an app password’s line in Apps', () => {
  const now = Date.parse('2026-11-26T18:40:00Z');

  it('reads as a sentence apart from the name, with relative times and no seconds', () => {
    const made = { createdAt: '2026-11-26T18:34:33Z', lastUsedAt: null };
    expect(keyUsage(made, now)).toBe('Made 5 min ago · not used yet');
    expect(keyUsage({ ...made, lastUsedAt: '2026-11-26T18:39:50Z', lastUsedBy: 'DSub' }, now)).toBe(
      'Made 5 min ago · last used just now by DSub',
    );
  });

  it('gives an old key its date without seconds', () => {
    const text = keyUsage({ createdAt: '2026-01-02T08:09:10Z', lastUsedAt: null }, now);
    expect(text).toMatch(/^Made .*2026/);
    expect(text).not.toMatch(/\d:\d\d:\d\d/);
  });
});
