/**
 * When a track counts as played, as Last.fm and ListenBrainz ask of scrobblers: once it has been
 * heard for half its length or for 4 minutes, whichever comes first. Only time really listened
 * counts: a seek forward adds nothing, so jumping to the end of a track is a skip, not a play.
 */
export const PLAY_AFTER_MS = 4 * 60 * 1000;
/** A position change bigger than this between two time updates is a seek, not listening. */
const MAX_STEP_MS = 2000;

export function playThresholdMs(durationMs: number): number {
  return durationMs > 0 ? Math.min(durationMs / 2, PLAY_AFTER_MS) : PLAY_AFTER_MS;
}

export class PlayCounter {
  private heardMs = 0;
  private lastPositionMs: number | null = null;
  private counted = false;

  constructor(readonly durationMs: number) {}

  /** The audio's position while it plays; true exactly once, when the track has become a play. */
  heard(positionMs: number): boolean {
    if (this.lastPositionMs !== null) {
      const step = positionMs - this.lastPositionMs;
      if (step > 0 && step <= MAX_STEP_MS) this.heardMs += step;
    }
    this.lastPositionMs = positionMs;
    if (this.counted || this.heardMs < playThresholdMs(this.durationMs)) return false;
    this.counted = true;
    return true;
  }

  /** Playback paused or jumped: the next position starts a new stretch. */
  interrupted(): void {
    this.lastPositionMs = null;
  }

  /** Whether leaving the track now is a skip: it was heard, but not long enough to be a play. */
  get skipped(): boolean {
    return !this.counted && this.heardMs > 0;
  }

  get played(): boolean {
    return this.counted;
  }
}
