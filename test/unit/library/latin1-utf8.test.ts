import { describe, expect, it } from 'vitest';
import { utf8FromLatin1 } from '../../../server/library/latin1-utf8.js';

/** What music-metadata makes of UTF-8 bytes read as Latin-1. */
const misread = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('utf8FromLatin1', () => {
  it('re-decodes UTF-8 that was read as Latin-1', () => {
    expect(misread('Mädchen')).toBe('MÃ¤dchen');
    expect(utf8FromLatin1(misread('Mädchen'))).toBe('Mädchen');
    expect(utf8FromLatin1(misread('Sigur Rós – Hoppípolla'))).toBe('Sigur Rós – Hoppípolla');
    expect(utf8FromLatin1(misread('東京事変'))).toBe('東京事変');
    expect(utf8FromLatin1(misread('🎵 emoji'))).toBe('🎵 emoji');
  });

  it('leaves real Latin-1 text, ASCII and text that is already Unicode alone', () => {
    expect(utf8FromLatin1('Mädchen')).toBe('Mädchen'); // "ä" alone (0xE4) is not valid UTF-8
    expect(utf8FromLatin1('Café del Mar')).toBe('Café del Mar');
    expect(utf8FromLatin1('ÀÉÎÕÜ')).toBe('ÀÉÎÕÜ');
    expect(utf8FromLatin1('plain ASCII')).toBe('plain ASCII');
    expect(utf8FromLatin1('')).toBe('');
    // Contains a character above U+00FF: it was decoded from a real Unicode encoding.
    expect(utf8FromLatin1('Ã¤ – already Unicode')).toBe('Ã¤ – already Unicode');
  });
});
