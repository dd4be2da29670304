import { capacityFor, grown } from './columns.js';

/**
 * Logs and plays per device name (its index + 1; 0 for no device), as the devices read counts them
 * (play-patterns.ts).
 */
export class DeviceCounts {
  logs: Uint32Array;
  plays: Uint32Array;

  constructor(size: number) {
    this.logs = new Uint32Array(size);
    this.plays = new Uint32Array(size);
  }

  /** Counts a log on `device` (a name's index + 1, 0 for none). */
  count(device: number, play: boolean): void {
    if (device >= this.logs.length) {
      const cap = capacityFor(device + 1, this.logs.length);
      this.logs = grown(this.logs, cap);
      this.plays = grown(this.plays, cap);
    }
    this.logs[device]! += 1;
    if (play) this.plays[device]! += 1;
  }
}

/**
 * A user's all-time counts for the household page's reads (play-patterns.ts): each is counted from
 * the rows at its first read, then kept current by every log (StatsIndex.add), so a read is not a
 * scan of all of a heavy listener's rows.
 */
export interface KeptCounts {
  /** Plays per local weekday and hour (week-hours.ts). */
  weekHours?: Uint32Array;
  devices?: DeviceCounts;
}
