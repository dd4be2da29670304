import { describe, expect, it } from 'vitest';
import { PLAY_AFTER_MS, PlayCounter, playThresholdMs } from '../../../../renderer/player/play-counter.js';

/** Feeds positions every 250 ms of playing from `from` to `to`; returns whether it became a play. */
function listen(counter: PlayCounter, from: number, to: number): boolean {
  let played = false;
  for (let at = from; at <= to; at += 250) played = counter.heard(at) || played;
  return played;
}

describe('when the page counts a play', () => {
  it('counts a track as played after half of it, once', () => {
    const counter = new PlayCounter(180_000);
    expect(listen(counter, 0, 89_750)).toBe(false);
    expect(counter.skipped).toBe(true);
    expect(listen(counter, 90_000, 91_000)).toBe(true);
    expect(listen(counter, 91_250, 180_000)).toBe(false);
    expect(counter.played).toBe(true);
    expect(counter.skipped).toBe(false);
  });

  it('counts a long track after 4 minutes', () => {
    expect(playThresholdMs(60 * 60_000)).toBe(PLAY_AFTER_MS);
    const counter = new PlayCounter(60 * 60_000);
    expect(listen(counter, 0, PLAY_AFTER_MS)).toBe(true);
  });

  it('does not count a seek to the end as listening: that is a skip', () => {
    const counter = new PlayCounter(200_000);
    listen(counter, 0, 5_000);
    expect(listen(counter, 190_000, 200_000)).toBe(false);
    expect(counter.skipped).toBe(true);
  });

  it('counts listening on both sides of a pause', () => {
    const counter = new PlayCounter(4_000);
    expect(listen(counter, 0, 1_500)).toBe(false);
    counter.interrupted();
    expect(listen(counter, 1_500, 2_250)).toBe(true);
  });

  it('is neither a play nor a skip when nothing was heard', () => {
    const counter = new PlayCounter(4_000);
    expect(counter.skipped).toBe(false);
    expect(counter.played).toBe(false);
  });
});
