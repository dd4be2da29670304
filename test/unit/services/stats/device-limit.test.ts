import { describe, expect, it } from 'vitest';
import type { LogRows } from '../../../../server/services/stats/columns/log-rows.js';
import {
  DeviceLimit,
  MAX_DEVICES_PER_USER,
  OTHER_DEVICES,
  type DeviceSource,
} from '../../../../server/services/stats/device-limit.js';

/** An index whose user `u1` has logs on these device names (null: no device). */
function indexWith(logged: Array<string | null>): DeviceSource {
  const deviceNames = [...new Set(logged.filter((name): name is string => name !== null))];
  const device = Uint32Array.from(logged, (name) => (name === null ? 0 : deviceNames.indexOf(name) + 1));
  const rows = { columns: { device, n: device.length } } as unknown as LogRows;
  return { deviceNames, rowsOf: (userId) => (userId === 'u1' ? rows : undefined) };
}

describe('DeviceLimit', () => {
  it('keeps a user’s first 256 names and logs later new ones as "Other devices"', () => {
    const limit = new DeviceLimit(indexWith([]));
    for (let i = 0; i < MAX_DEVICES_PER_USER; i += 1)
      expect(limit.nameFor('u1', `speaker ${i}`)).toBe(`speaker ${i}`);
    expect(limit.nameFor('u1', 'one too many')).toBe(OTHER_DEVICES);
    expect(limit.nameFor('u1', 'SPEAKER 3')).toBe('SPEAKER 3');
    expect(limit.nameFor('u1', null)).toBeNull();
    expect(limit.nameFor('u2', 'one too many')).toBe('one too many');
  });

  it('counts the names already in the index, ignoring case, before admitting new ones', () => {
    const logged = Array.from({ length: MAX_DEVICES_PER_USER - 1 }, (_, i) => `old ${i}`);
    const limit = new DeviceLimit(indexWith([...logged, 'OLD 1', null]));
    expect(limit.nameFor('u1', 'Old 1')).toBe('Old 1');
    expect(limit.nameFor('u1', 'new')).toBe('new');
    expect(limit.nameFor('u1', 'newer')).toBe(OTHER_DEVICES);
  });
});
