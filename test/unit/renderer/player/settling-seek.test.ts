import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SETTLE_MS, SettlingSeek } from '../../../../renderer/player/settling-seek.js';

describe('seeking in a transcode', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks for the track once, from where quick seeks ended, once they pause', () => {
    const seek = new SettlingSeek();
    const restarts: Array<[number, boolean]> = [];
    const restart = (ms: number, play: boolean) => restarts.push([ms, play]);
    seek.seek(30_000, true, restart);
    vi.advanceTimersByTime(SETTLE_MS - 1);
    // The element is paused by the first seek: later ones see it paused, but it played before.
    seek.seek(20_000, false, restart);
    vi.advanceTimersByTime(SETTLE_MS - 1);
    seek.seek(10_000, false, restart);
    expect(seek.pendingMs).toBe(10_000);
    expect(restarts).toEqual([]);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(restarts).toEqual([[10_000, true]]);
    expect(seek.pendingMs).toBeNull();
  });

  it('keeps a paused track paused, and asks again for each seek that comes after a pause', () => {
    const seek = new SettlingSeek();
    const restarts: Array<[number, boolean]> = [];
    const restart = (ms: number, play: boolean) => restarts.push([ms, play]);
    seek.seek(5_000, false, restart);
    vi.advanceTimersByTime(SETTLE_MS);
    seek.seek(50_000, true, restart);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(restarts).toEqual([
      [5_000, false],
      [50_000, true],
    ]);
  });

  it('forgets a seek not yet asked for when the listener moves on', () => {
    const seek = new SettlingSeek();
    const restart = vi.fn();
    seek.seek(5_000, true, restart);
    seek.cancel();
    vi.advanceTimersByTime(SETTLE_MS * 2);
    expect(restart).not.toHaveBeenCalled();
    expect(seek.pendingMs).toBeNull();
  });
});
