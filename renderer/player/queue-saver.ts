/**
 * Saves the queue as the member's play queue, so listening continues on a phone and back: shortly
 * after each change (a burst of edits saves once), and every so often while playing, for the
 * position. A Pass account saves nothing.
 */
import type { Api } from '../api.js';
import { deviceLabel } from './device.js';

/** How long after the last change the queue is saved, so a burst of edits saves once. */
const SAVE_DELAY_MS = 1000;
/** While playing, the position is saved this often, for another device to pick up. */
const POSITION_SAVE_MS = 15_000;

/** The queue as it is to be saved. */
export interface SavedQueue {
  trackIds: string[];
  current: string | undefined;
  positionMs: number;
}

export class QueueSaver {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastSave = 0;

  constructor(
    private readonly api: Api,
    private readonly enabled: boolean,
    private readonly state: () => SavedQueue,
  ) {}

  /** The queue changed: save it after a short wait. */
  changed(): void {
    this.schedule(SAVE_DELAY_MS);
  }

  /** The track plays on: save the position when the last save is old enough. */
  playing(): void {
    if (Date.now() - this.lastSave > POSITION_SAVE_MS) this.schedule(0);
  }

  cancel(): void {
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (!this.enabled) return;
    clearTimeout(this.timer);
    this.lastSave = Date.now();
    this.timer = setTimeout(() => void this.save(), delayMs);
  }

  private async save(): Promise<void> {
    try {
      await this.api.json('/api/play-queue/save', { json: { ...this.state(), device: deviceLabel() } });
    } catch {
      // Quietly: the queue is saved again on the next change, and playing goes on meanwhile.
    }
  }
}
