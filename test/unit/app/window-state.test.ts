import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  beforeQuitAction,
  closeAction,
  DEFAULT_SIZE,
  fitBounds,
  loadBounds,
  navigationTarget,
  QuitState,
  saveBounds,
} from '../../../app/window-state.js';

describe('close to tray', () => {
  it('hides the window until the app quits', () => {
    const state = new QuitState();
    expect(closeAction(state)).toBe('hide');
    beforeQuitAction(state);
    expect(closeAction(state)).toBe('close');
  });

  it('holds the first quit back for the shutdown, waits on repeats, then lets it through', () => {
    const state = new QuitState();
    expect(beforeQuitAction(state)).toBe('start-shutdown');
    expect(state.isQuitting).toBe(true);
    expect(beforeQuitAction(state)).toBe('wait');
    state.shutdownDone = true;
    expect(beforeQuitAction(state)).toBe('proceed');
  });

  it('never blocks quitAndInstall: before-quit alone makes close() close', () => {
    // electron-updater emits before-quit and then closes the windows.
    const state = new QuitState();
    beforeQuitAction(state);
    expect(closeAction(state)).toBe('close');
  });
});

describe('fitBounds', () => {
  const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

  it.each([
    {
      when: 'restores bounds that are on a display',
      saved: { x: 100, y: 50, width: 800, height: 600 },
      fitted: { x: 100, y: 50, width: 800, height: 600 },
    },
    {
      when: 'keeps only the size when the display is gone',
      saved: { x: 3000, y: 50, width: 800, height: 600 },
      fitted: { width: 800, height: 600 },
    },
    { when: 'falls back to the default size when nothing was saved', saved: null, fitted: DEFAULT_SIZE },
    { when: 'falls back to the default size for junk', saved: { x: 'a' }, fitted: DEFAULT_SIZE },
    {
      when: 'enforces a minimum size',
      saved: { x: 0, y: 0, width: 10, height: 10 },
      fitted: { x: 0, y: 0, width: 420, height: 360 },
    },
  ])('$when', ({ saved, fitted }) => {
    expect(fitBounds(saved, screen)).toEqual(fitted);
  });
});

describe('saved bounds', () => {
  let dir = '';
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('round-trips and tolerates a damaged file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'melon-ws-'));
    const file = join(dir, 'nested', 'window-state.json');
    expect(await loadBounds(file)).toBeNull();
    await saveBounds(file, { x: 1, y: 2, width: 500, height: 400 });
    expect(await loadBounds(file)).toEqual({ x: 1, y: 2, width: 500, height: 400 });
    await writeFile(file, '{oops');
    expect(await loadBounds(file)).toBeNull();
  });
});

describe('navigationTarget', () => {
  const origin = 'http://127.0.0.1:14524';

  it('keeps the server pages inside and sends https links to the browser', () => {
    expect(navigationTarget('http://127.0.0.1:14524/admin#stats', origin)).toBe('inside');
    expect(navigationTarget('https://github.com/melon-music/melon/releases', origin)).toBe('external');
  });

  it('blocks other schemes and other local servers', () => {
    expect(navigationTarget('file:///etc/passwd', origin)).toBe('block');
    expect(navigationTarget('http://127.0.0.1:9999/', origin)).toBe('block');
    expect(navigationTarget('javascript:alert(1)', origin)).toBe('block');
    expect(navigationTarget('not a url', origin)).toBe('block');
    expect(navigationTarget('http://127.0.0.1:14524/admin', null)).toBe('block');
  });
});
