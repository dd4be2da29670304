import { describe, expect, it } from 'vitest';
import {
  appsLink,
  formatAgo,
  formatChange,
  formatDateTime,
  inviteLink,
  originOf,
  previousPeriod,
} from '../../../renderer/format.js';

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

describe('the headline compares with the period just before, of the same length', () => {
  // Local times: the page reads and sends them as the server does.
  const at = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

  it('compares this month so far with the same days of last month', () => {
    const previous = previousPeriod('month', at(2026, 11, 26, 21, 0));
    expect(previous?.label).toBe('last month');
    expect(previous?.query.gtDateTime).toBe('2026-10-01');
    expect(previous?.query.ltDateTime).toBe(at(2026, 10, 26, 21, 0).toISOString());
  });

  it('stops at the end of a shorter month', () => {
    const previous = previousPeriod('month', at(2026, 3, 31, 10, 0));
    expect(previous?.query.gtDateTime).toBe('2026-02-01');
    expect(new Date(previous!.query.ltDateTime).getTime()).toBe(at(2026, 3, 1).getTime() - 1);
  });

  it('compares this week from Monday with last week from Monday, and this year with last year', () => {
    // 26 November 2026 is a Thursday.
    expect(previousPeriod('week', at(2026, 11, 26, 8, 30))?.query).toEqual({
      gtDateTime: '2026-11-16',
      ltDateTime: at(2026, 11, 19, 8, 30).toISOString(),
    });
    expect(previousPeriod('year', at(2026, 11, 26, 8, 30))).toEqual({
      query: { gtDateTime: '2025-01-01', ltDateTime: at(2025, 11, 26, 8, 30).toISOString() },
      label: 'last year',
    });
  });

  it('compares a custom range of N days with the N days before it, and all time with nothing', () => {
    expect(previousPeriod('custom', at(2026, 11, 26), { from: '2026-11-10', to: '2026-11-16' })).toEqual({
      query: { gtDateTime: '2026-11-03', ltDateTime: '2026-11-09T23:59:59.999' },
      label: 'the previous 7 days',
    });
    expect(previousPeriod('custom', at(2026, 11, 26), { from: '2026-11-10', to: '2026-11-10' })?.label).toBe(
      'the day before',
    );
    expect(previousPeriod('custom', at(2026, 11, 26), { to: '2026-11-10' })).toBeNull();
    expect(previousPeriod('all', at(2026, 11, 26))).toBeNull();
  });

  it('writes the change as a signed percentage, and says so when there was nothing before', () => {
    expect(formatChange(118, 100, 'last month')).toBe('+18% vs last month');
    expect(formatChange(50, 100, 'last week')).toBe('-50% vs last week');
    expect(formatChange(100, 100, 'last week')).toBe('0% vs last week');
    expect(formatChange(3, 0, 'last month')).toBe('vs none last month');
    expect(formatChange(0, 0, 'last month')).toBeNull();
  });
});
