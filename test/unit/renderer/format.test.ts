import { describe, expect, it } from 'vitest';
import { appsLink, formatAgo, formatDateTime, inviteLink, originOf } from '../../../renderer/format.js';

describe('what the QR codes hold', () => {
  it('is a plain http address a phone camera opens, never melon://', () => {
    expect(appsLink('http://192.168.1.20:14524')).toBe('http://192.168.1.20:14524/admin/#apps');
    expect(inviteLink('http://192.168.1.20:14524', '7KQX')).toBe(
      'http://192.168.1.20:14524/admin/#invite?code=7KQX',
    );
    expect(originOf('192.168.1.20:14524')).toBe('http://192.168.1.20:14524');
    expect(originOf('http://[fe80::1]:14524/admin/')).toBe('http://[fe80::1]:14524');
  });
});

describe('formatAgo', () => {
  const now = Date.parse('2026-11-26T20:00:00Z');
  const ago = (ms: number) => formatAgo(new Date(now - ms).toISOString(), now);

  it('says how long ago an app password was used, as a person would', () => {
    expect(formatAgo(null, now)).toBe('never');
    expect(ago(20_000)).toBe('just now');
    expect(ago(2 * 60_000 + 5_000)).toBe('2 min ago');
    expect(ago(3 * 3_600_000)).toBe('3 h ago');
    expect(ago(86_400_000)).toBe('1 day ago');
    expect(ago(5 * 86_400_000)).toBe('5 days ago');
    expect(ago(60 * 86_400_000)).not.toMatch(/ago/);
  });
});

describe('formatDateTime', () => {
  it('writes a date in the reader’s locale to the minute, never with seconds', () => {
    const text = formatDateTime('2026-11-26T18:34:33Z');
    expect(text).toMatch(/2026/);
    expect(text).not.toMatch(/\d:\d\d:\d\d/);
    expect(formatDateTime(null)).toBe('never');
  });
});
