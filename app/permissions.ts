/**
 * What the settings window's page may ask the browser for: nothing. It copies through the preload
 * bridge (no clipboard permission), shows no notifications, and uses no camera, microphone,
 * location, devices or full screen. A page that is not the server's own (it cannot be: navigation
 * stays on the server) gets nothing either. Electron's default grants every request.
 */
export const PAGE_PERMISSIONS: ReadonlySet<string> = new Set<string>();

/** Whether a permission request or check from `requestingUrl` (a URL or an origin) is granted. */
export function allowPermission(
  permission: string,
  requestingUrl: string,
  serverOrigin: string | null,
): boolean {
  if (serverOrigin === null || !PAGE_PERMISSIONS.has(permission)) return false;
  try {
    return new URL(requestingUrl).origin === serverOrigin;
  } catch {
    return false;
  }
}
