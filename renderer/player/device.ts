/**
 * The device name plays are logged with: "Browser (Kitchen laptop)", the name a member gives this
 * browser in Listen, kept in this browser only.
 */
const KEY = 'melon.deviceName';
const MAX_NAME = 100;

export function deviceName(storage: Storage = localStorage): string {
  try {
    return (storage.getItem(KEY) ?? '').trim().slice(0, MAX_NAME);
  } catch {
    return '';
  }
}

export function setDeviceName(name: string, storage: Storage = localStorage): void {
  const trimmed = name.trim().slice(0, MAX_NAME);
  if (trimmed) storage.setItem(KEY, trimmed);
  else storage.removeItem(KEY);
}

export function deviceLabel(storage: Storage = localStorage): string {
  const name = deviceName(storage);
  return name ? `Browser (${name})` : 'Browser';
}
