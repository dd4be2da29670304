/** How long seeks in a transcode must pause before the track is asked for again from there. */
export const SETTLE_MS = 300;

/**
 * Seeks in a transcode, settled. Each seek asks the server to encode the track again from the new
 * place, so seeks that follow each other quickly (an arrow key pressed three times or held, a
 * slider dragged) become one request, for where they ended, once they pause for `settleMs`: not one
 * encoder each, which the account's share of encoders would refuse. Until then the position
 * shown is the one sought, and whether to play on is what it was before the first of them (each
 * seek pauses the element, so asking it again would say "paused").
 */
export class SettlingSeek {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private target: number | null = null;
  private playOn = false;

  constructor(private readonly settleMs = SETTLE_MS) {}

  /** The position sought and not yet asked for (ms), or null. */
  get pendingMs(): number | null {
    return this.target;
  }

  /** A seek to `targetMs`; `restart` is called once the seeks settle, with whether to play. */
  seek(targetMs: number, playing: boolean, restart: (ms: number, play: boolean) => void): void {
    if (this.target === null) this.playOn = playing;
    clearTimeout(this.timer);
    this.target = targetMs;
    this.timer = setTimeout(() => {
      const play = this.playOn;
      this.cancel();
      restart(targetMs, play);
    }, this.settleMs);
  }

  /** Forgets a seek not yet asked for (another track, a stop). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.target = null;
  }
}
