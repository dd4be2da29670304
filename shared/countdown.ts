/** Shared by the settings page's invite list and the tray's invite menu, so both count alike. */

/** `9:41`; `0:00` once expired. Rounds up so a fresh 10-minute code shows 10:00. */
export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
