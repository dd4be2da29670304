import { describe, expect, it } from 'vitest';
import { nextStep, parseIsoDate, stepStart } from '../../../server/domain/dates.js';

describe('parseIsoDate', () => {
  it('reads offsets exactly', () => {
    expect(parseIsoDate('2026-11-01T20:15:00Z')).toBe(Date.UTC(2026, 10, 1, 20, 15));
    expect(parseIsoDate('2026-11-01T21:15:00+01:00')).toBe(Date.UTC(2026, 10, 1, 20, 15));
    expect(parseIsoDate('2026-11-01T15:15:00-0500')).toBe(Date.UTC(2026, 10, 1, 20, 15));
    expect(parseIsoDate('2026-11-01T20:15:00.250Z')).toBe(Date.UTC(2026, 10, 1, 20, 15, 0, 250));
  });

  it('reads dates and date-times without an offset as local time', () => {
    expect(parseIsoDate('2026-11-01')).toBe(new Date(2026, 10, 1).getTime());
    expect(parseIsoDate('2026-11-01T20:15')).toBe(new Date(2026, 10, 1, 20, 15).getTime());
    expect(parseIsoDate('2026-11-01T20:15:09')).toBe(new Date(2026, 10, 1, 20, 15, 9).getTime());
  });

  it('knows leap years', () => {
    expect(parseIsoDate('2024-02-29')).not.toBeNull();
    expect(parseIsoDate('2026-02-29')).toBeNull();
    expect(parseIsoDate('2000-02-29')).not.toBeNull();
    expect(parseIsoDate('1900-02-29')).toBeNull();
  });

  it('refuses everything else', () => {
    for (const text of [
      '',
      'yesterday',
      '2026-13-01',
      '2026-11-31',
      '2026-11-01T24:00',
      '2026-11-01T20:60',
      '2026-11-01T20:15:61',
      '2026-11-01T20:15:00+25:00',
      '1762000000',
      '2026/11/01',
      '2026-11-01Z',
      '2026-1-1',
    ]) {
      expect(parseIsoDate(text), text).toBeNull();
    }
  });
});

describe('date steps', () => {
  // Local times: the steps are the server's local days, weeks and months (the tests run in UTC).
  const at = (y: number, mo: number, d: number, h = 0) => new Date(y, mo - 1, d, h).getTime();

  it('starts a step at local midnight of its day, its Monday or its first of the month', () => {
    const wednesday = at(2026, 11, 25, 15);
    expect(stepStart(wednesday, 'day')).toBe(at(2026, 11, 25));
    expect(stepStart(wednesday, 'week')).toBe(at(2026, 11, 23));
    expect(stepStart(at(2026, 11, 29, 23), 'week')).toBe(at(2026, 11, 23));
    expect(stepStart(wednesday, 'month')).toBe(at(2026, 11, 1));
  });

  it('steps to the next day, week or month, across a year', () => {
    expect(nextStep(at(2026, 12, 31), 'day')).toBe(at(2027, 1, 1));
    expect(nextStep(at(2026, 12, 28), 'week')).toBe(at(2027, 1, 4));
    expect(nextStep(at(2026, 12, 1), 'month')).toBe(at(2027, 1, 1));
    expect(nextStep(at(2026, 1, 1), 'month')).toBe(at(2026, 2, 1));
  });
});
