import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The quit flags. `isQuitting` is set on `before-quit` — which both the tray's Quit and
 * electron-updater's `quitAndInstall` emit — so the close-to-tray handler never blocks a real quit.
 */
export class QuitState {
  isQuitting = false;
  shutdownStarted = false;
  /** Set once the server has stopped and the store is flushed. */
  shutdownDone = false;
}

/** What the window's `close` handler does: hide to the tray unless the app is quitting. */
export function closeAction(state: QuitState): 'hide' | 'close' {
  return state.isQuitting ? 'close' : 'hide';
}

/**
 * What `before-quit` does. The first time, the quit is held back while the server stops (flushing
 * the store); a second Quit meanwhile just waits; once stopped, the app quits again and this
 * answers 'proceed'.
 */
export function beforeQuitAction(state: QuitState): 'start-shutdown' | 'wait' | 'proceed' {
  state.isQuitting = true;
  if (state.shutdownDone) return 'proceed';
  if (state.shutdownStarted) return 'wait';
  state.shutdownStarted = true;
  return 'start-shutdown';
}

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_SIZE = { width: 960, height: 720 };
const MIN_SIZE = { width: 420, height: 360 };

/**
 * The saved bounds when they are sane and still overlap a display (a monitor may have been
 * unplugged since); else only the size, so Electron centres the window.
 */
export function fitBounds(
  saved: unknown,
  workAreas: Bounds[],
): Partial<Bounds> & { width: number; height: number } {
  if (!isBounds(saved)) return { ...DEFAULT_SIZE };
  const width = Math.max(MIN_SIZE.width, saved.width);
  const height = Math.max(MIN_SIZE.height, saved.height);
  const visible = workAreas.some(
    (area) =>
      saved.x + 80 <= area.x + area.width &&
      saved.x + width - 80 >= area.x &&
      saved.y >= area.y - 10 &&
      saved.y + 40 <= area.y + area.height,
  );
  return visible ? { x: saved.x, y: saved.y, width, height } : { width, height };
}

function isBounds(value: unknown): value is Bounds {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['x', 'y', 'width', 'height'].every(
    (key) => typeof record[key] === 'number' && Number.isFinite(record[key]),
  );
}

export async function loadBounds(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    return null; // first run or a damaged file: use the default size
  }
}

export async function saveBounds(file: string, bounds: Bounds): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(bounds));
}

/**
 * The window shows only the server's own pages; anything else opens in the browser (https only).
 * Only http(s) URLs can be the server's pages: `blob:http://server/…` has the server's origin but is
 * whatever bytes made it (an image response, say), so it is blocked like `data:` and `file:`.
 */
export function navigationTarget(url: string, serverOrigin: string | null): 'inside' | 'external' | 'block' {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'block';
  }
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  if (serverOrigin !== null && web && parsed.origin === serverOrigin) return 'inside';
  return parsed.protocol === 'https:' ? 'external' : 'block';
}
