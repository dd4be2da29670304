/**
 * A fixed number of slots taken without waiting: a transcode either gets one now or is refused
 * (503 `busy`), so a household's burst of requests cannot start more encoders than the machine has
 * room for, and nothing queues behind a long encode.
 */
export class Slots {
  private used = 0;

  constructor(readonly size: number) {}

  /** A release function (idempotent), or null when every slot is taken. */
  tryTake(): (() => void) | null {
    if (this.used >= this.size) return null;
    this.used += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= 1;
    };
  }

  get inUse(): number {
    return this.used;
  }
}
