import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TrayState } from '../../../app/menu-model.js';

/** app/tray.ts with `electron` mocked: the menu is drawn from the state and counts invites down. */
type Item = { label?: string; type?: string; enabled?: boolean; checked?: boolean; click?: () => void };

const fake = vi.hoisted(() => {
  class FakeTray {
    static last: FakeTray | null = null;
    tooltip = '';
    menu: Item[] = [];
    draws = 0;
    clickListener: (() => void) | null = null;
    constructor(readonly image: { path: string }) {
      FakeTray.last = this;
    }
    on(event: string, listener: () => void) {
      if (event === 'click') this.clickListener = listener;
      return this;
    }
    setToolTip(text: string) {
      this.tooltip = text;
    }
    setContextMenu(menu: Item[]) {
      this.menu = menu;
      this.draws++;
    }
  }
  return {
    FakeTray,
    electron: {
      Tray: FakeTray,
      Menu: { buildFromTemplate: (template: unknown) => template },
      nativeImage: { createFromPath: (path: string) => ({ path }) },
    },
  };
});
vi.mock('electron', () => fake.electron);

const { DesktopTray } = await import('../../../app/tray.js');

const running: TrayState = {
  server: { kind: 'running', url: 'http://127.0.0.1:5000', addresses: ['http://127.0.0.1:5000'] },
  update: { kind: 'idle' },
  openAtLogin: false,
  invites: [],
};

function makeTray(state: () => TrayState, quitting = () => false) {
  const onAction = vi.fn(() => Promise.resolve());
  const onClick = vi.fn();
  const tray = new DesktopTray({ icon: '/icons/tray.png', state, quitting, onAction, onClick });
  return { tray, native: fake.FakeTray.last!, onAction, onClick };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('DesktopTray', () => {
  it('shows the icon, and the state as tooltip and menu whose items run their action', () => {
    const { tray, native, onAction, onClick } = makeTray(() => running);
    expect(native.image).toEqual({ path: '/icons/tray.png' });
    tray.refresh();
    expect(native.tooltip).toBe('Melon — 127.0.0.1:5000');
    const open = native.menu.find((item) => item.label === 'Open settings');
    expect(open).toMatchObject({ type: 'normal', enabled: true });
    open!.click!();
    expect(onAction).toHaveBeenCalledWith('open-settings');
    expect(native.menu.find((item) => item.label === 'Start at login')).toMatchObject({
      type: 'checkbox',
      checked: false,
    });
    expect(native.menu.filter((item) => item.type === 'separator')).not.toEqual([]);
    native.clickListener!();
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('redraws once a second while an invite code is active, and stops when none is left', () => {
    let state = running;
    const { tray, native } = makeTray(() => state);
    state = { ...running, invites: [{ code: 'ABCD', expiresAt: '', remainingMs: 61_000 }] };
    tray.refresh();
    expect(native.menu.map((item) => item.label)).toContain('  ABCD — 1:01 left');
    vi.advanceTimersByTime(3_000);
    expect(native.draws).toBe(4);
    state = running;
    vi.advanceTimersByTime(1_000);
    vi.advanceTimersByTime(5_000);
    expect(native.draws).toBe(5);
  });

  it('does not count down once the app is quitting', () => {
    const state = { ...running, invites: [{ code: 'ABCD', expiresAt: '', remainingMs: 61_000 }] };
    const { tray, native } = makeTray(
      () => state,
      () => true,
    );
    tray.refresh();
    vi.advanceTimersByTime(5_000);
    expect(native.draws).toBe(1);
  });
});
