import type { LogRows } from './columns/log-rows.js';

/** The name under which a user's device names past the limit are counted (docs/API.md, Statistics). */
export const OTHER_DEVICES = 'Other devices';

/**
 * Distinct device names a user's logs may carry. A household has a few dozen players; a scrobbler
 * sending a new `media_player` with every listen made the devices read, and the settings page's
 * device list, as long as the user's history.
 */
export const MAX_DEVICES_PER_USER = 256;

/** What the limit reads of the stats index: a user's rows and the device names they point at. */
export interface DeviceSource {
  rowsOf(userId: string): LogRows | undefined;
  readonly deviceNames: readonly string[];
}

/**
 * The device name a new log is recorded under: its own while the user has logged fewer than
 * MAX_DEVICES_PER_USER distinct names (case ignored, as reads match them), or one already logged;
 * otherwise OTHER_DEVICES. Every writer of logs asks here first, so the names stay bounded in the
 * play log, the index and every read. A user's names are gathered from the index at first use (one
 * pass over their rows), then kept current as names are admitted.
 */
export class DeviceLimit {
  private readonly known = new Map<string, Set<string>>();

  constructor(private readonly index: DeviceSource) {}

  nameFor(userId: string, device: string | null): string | null {
    if (device === null) return null;
    const keys = this.keysOf(userId);
    const key = device.toLowerCase();
    if (keys.has(key)) return device;
    if (keys.size >= MAX_DEVICES_PER_USER) return OTHER_DEVICES;
    keys.add(key);
    return device;
  }

  private keysOf(userId: string): Set<string> {
    let keys = this.known.get(userId);
    if (keys) return keys;
    keys = new Set();
    const rows = this.index.rowsOf(userId);
    if (rows) {
      const { device, n } = rows.columns;
      const names = this.index.deviceNames;
      const seen = new Set<number>();
      for (let row = 0; row < n; row += 1) {
        const d = device[row]!;
        if (d === 0 || seen.has(d)) continue;
        seen.add(d);
        keys.add(names[d - 1]!.toLowerCase());
      }
    }
    this.known.set(userId, keys);
    return keys;
  }
}
