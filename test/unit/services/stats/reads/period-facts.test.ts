import { afterEach, describe, expect, it } from 'vitest';
import {
  daysListenedOf,
  daysListenedOfAll,
  newArtistIdsOf,
  newArtistIdsOfAll,
} from '../../../../../server/services/stats/reads/period-facts.js';
import type { PlayLogEntry } from '../../../../../server/domain/play.js';
import { playLog, statsIndexOf } from '../../../../factories/plays.js';

const zoneBefore = process.env.TZ;
afterEach(() => {
  process.env.TZ = zoneBefore;
});

const local = (day: number, hour: number) => new Date(2024, 2, day, hour).getTime();
const log = (overrides: Partial<PlayLogEntry>) => playLog({ genres: [], ...overrides });

describe('daysListenedOf', () => {
  it('counts each local day with a play once, however many plays it has', () => {
    process.env.TZ = 'Europe/Berlin';
    const index = statsIndexOf([
      log({ at: local(1, 0) }),
      log({ at: local(1, 23) }),
      log({ at: local(2, 8) }),
      log({ at: local(2, 9) }),
      log({ at: local(5, 12) }),
    ]);
    expect(daysListenedOf(index, { userId: 'u1' })).toBe(3);
    expect(daysListenedOf(index, { userId: 'u1', from: local(2, 0), to: local(31, 0) })).toBe(2);
  });

  it('does not count a day with only skips, or with plays on another device than the one asked for', () => {
    process.env.TZ = 'UTC';
    const index = statsIndexOf([
      log({ at: local(1, 10), type: 'skip' }),
      log({ at: local(2, 10), device: 'Kitchen' }),
      log({ at: local(3, 10), device: 'Phone' }),
      log({ at: local(3, 11), device: 'kitchen' }),
    ]);
    expect(daysListenedOf(index, { userId: 'u1' })).toBe(2);
    expect(daysListenedOf(index, { userId: 'u1', device: 'KITCHEN' })).toBe(2);
    expect(daysListenedOf(index, { userId: 'u1', device: 'Phone' })).toBe(1);
    expect(daysListenedOf(index, { userId: 'nobody' })).toBe(0);
  });

  it('splits days at local midnight, also across a daylight-saving change', () => {
    process.env.TZ = 'America/New_York';
    // 10 March 2024 has 23 hours there: 23:30 on the 10th and 00:30 on the 11th are two days.
    const index = statsIndexOf([
      log({ at: local(10, 23) + 30 * 60_000 }),
      log({ at: local(11, 0) + 30 * 60_000 }),
    ]);
    expect(daysListenedOf(index, { userId: 'u1' })).toBe(2);
  });
});

describe('newArtistIdsOf', () => {
  it('lists the artists first heard in the range, not those heard before it', () => {
    const index = statsIndexOf([
      log({ at: local(1, 10), artistIds: ['old'] }),
      log({ at: local(10, 10), artistIds: ['old', 'fresh'] }),
      log({ at: local(11, 10), artistIds: ['other'] }),
      log({ at: local(12, 10), artistIds: ['skipped'], type: 'skip' }),
      log({ at: local(13, 10), artistIds: ['someone-else'], userId: 'u2' }),
    ]);
    const march10to20 = { userId: 'u1', from: local(10, 0), to: local(20, 0) };
    expect(newArtistIdsOf(index, march10to20).sort()).toEqual(['fresh', 'other']);
    expect(newArtistIdsOf(index, { userId: 'u1' }).sort()).toEqual(['fresh', 'old', 'other']);
    expect(newArtistIdsOf(index, { userId: 'u2', from: local(10, 0), to: local(20, 0) })).toEqual([
      'someone-else',
    ]);
  });

  it('counts an artist as new when its first play is in the range, whatever the device filter', () => {
    const index = statsIndexOf([
      log({ at: local(1, 10), artistIds: ['a'], device: 'Phone' }),
      log({ at: local(10, 10), artistIds: ['a'], device: 'Kitchen' }),
    ]);
    expect(newArtistIdsOf(index, { userId: 'u1', from: local(5, 0), device: 'Kitchen' })).toEqual([]);
  });
});

describe('a household: days anyone listened, artists new to all of them', () => {
  it('counts a day two people listened on once, and an artist one of them knew before as not new', () => {
    process.env.TZ = 'UTC';
    const index = statsIndexOf([
      log({ at: local(1, 10), artistIds: ['known'], userId: 'u1' }),
      log({ at: local(10, 10), artistIds: ['known'], userId: 'u2' }),
      log({ at: local(10, 12), artistIds: ['fresh'], userId: 'u1' }),
      log({ at: local(11, 9), artistIds: ['fresh'], userId: 'u2' }),
    ]);
    const range = { from: local(10, 0), to: local(20, 0) };
    const filters = ['u1', 'u2'].map((userId) => ({ userId, ...range }));
    expect(daysListenedOfAll(index, filters)).toBe(2);
    expect(newArtistIdsOfAll(index, ['u1', 'u2'], range.from, range.to)).toEqual(['fresh']);
    // For u2 alone, "known" is new: only the household had heard it.
    expect(newArtistIdsOfAll(index, ['u2'], range.from, range.to).sort()).toEqual(['fresh', 'known']);
    expect(newArtistIdsOfAll(index, [], range.from, range.to)).toEqual([]);
  });
});
