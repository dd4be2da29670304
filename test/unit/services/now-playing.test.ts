import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/clock.js';
import { NowPlayingService } from '../../../server/services/now-playing.js';

describe('NowPlayingService', () => {
  it('keeps one entry per listener, the latest first, until the track and a grace period are over', () => {
    const clock = new ManualClock(0);
    const now = new NowPlayingService(clock);
    now.announce('ann', 't1', 'DSub', 180_000);
    clock.advance(1000);
    now.announce('bob', 't2', null, null);
    now.announce('ann', 't3', 'Feishin', 60_000);
    expect(now.list().map((entry) => [entry.userId, entry.trackId, entry.client])).toEqual([
      ['ann', 't3', 'Feishin'],
      ['bob', 't2', null],
    ]);
    clock.advance(60_000 + 2 * 60_000); // ann's track and its grace are over; bob's length is unknown
    expect(now.list().map((entry) => entry.userId)).toEqual(['bob']);
    clock.advance(10 * 60_000);
    expect(now.list()).toEqual([]);
  });

  it('clears a listener, or only when the track given is the one playing', () => {
    const now = new NowPlayingService(new ManualClock(0));
    now.announce('ann', 't1', null, 1000);
    now.clear('ann', 't2');
    expect(now.list()).toHaveLength(1);
    now.clear('ann', 't1');
    expect(now.list()).toEqual([]);
  });
});
