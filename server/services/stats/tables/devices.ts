import { Interner } from './interner.js';

/** The device tables under the names the saved index (plays.index) has always used. */
export interface SavedDevices {
  devices: Interner;
  deviceKeys: Interner;
  deviceKey: number[];
}

/**
 * Device names as logged, and the key a filter matches them by: the name ignoring case, so
 * "Phone" and "phone" are one device to a read (docs/API.md, Statistics).
 */
export class DeviceKeys {
  readonly names = new Interner();
  readonly keys = new Interner();
  /** Per device name, its key. */
  readonly keyOf: number[] = [];

  static fromSaved(saved: SavedDevices): DeviceKeys {
    return Object.assign(Object.create(DeviceKeys.prototype) as DeviceKeys, {
      names: saved.devices,
      keys: saved.deviceKeys,
      keyOf: saved.deviceKey,
    });
  }

  saved(): SavedDevices {
    return { devices: this.names, deviceKeys: this.keys, deviceKey: this.keyOf };
  }

  intern(device: string): number {
    const idx = this.names.intern(device);
    if (idx === this.keyOf.length) this.keyOf.push(this.keys.intern(device.toLowerCase()));
    return idx;
  }

  /** The key a read for `device` matches, undefined for no filter, or null when no log has that device. */
  filter(device: string | undefined): number | undefined | null {
    if (device === undefined) return undefined;
    return this.keys.get(device.toLowerCase()) ?? null;
  }
}
