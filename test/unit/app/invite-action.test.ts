import { describe, expect, it, vi } from 'vitest';
import { createInviteAction, formatCountdown, InviteTracker } from '../../../app/invite-action.js';

const T0 = Date.parse('2026-11-01T20:00:00Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

describe('formatCountdown', () => {
  it('shows minutes and seconds, rounding up, never negative', () => {
    expect(formatCountdown(600_000)).toBe('10:00');
    expect(formatCountdown(581_001)).toBe('9:42');
    expect(formatCountdown(1)).toBe('0:01');
    expect(formatCountdown(-5)).toBe('0:00');
  });
});

describe('InviteTracker', () => {
  it('lists live codes newest first and drops expired ones', () => {
    let now = T0;
    const tracker = new InviteTracker(() => now);
    tracker.add({ code: 'AAAA', expiresAt: at(60_000) });
    tracker.add({ code: 'BBBB', expiresAt: at(600_000) });
    expect(tracker.active().map((invite) => [invite.code, invite.remainingMs])).toEqual([
      ['BBBB', 600_000],
      ['AAAA', 60_000],
    ]);
    now = T0 + 60_000;
    expect(tracker.active().map((invite) => invite.code)).toEqual(['BBBB']);
  });
});

describe('createInviteAction', () => {
  it('copies the code and announces it with its lifetime', async () => {
    const copy = vi.fn();
    const notify = vi.fn();
    const tracker = new InviteTracker(() => T0);
    const invite = await createInviteAction({
      create: () => Promise.resolve({ code: '7KQX', expiresAt: at(600_000) }),
      copy,
      notify,
      tracker,
      now: () => T0,
    });
    expect(invite?.code).toBe('7KQX');
    expect(copy).toHaveBeenCalledWith('7KQX');
    expect(notify).toHaveBeenCalledWith('Invite code 7KQX', expect.stringContaining('10:00'));
    expect(tracker.active()).toHaveLength(1);
  });

  it('tells the user when the server refuses', async () => {
    const notify = vi.fn();
    const copy = vi.fn();
    const result = await createInviteAction({
      create: () => Promise.reject(new Error('At most 5 invite codes may be active; try again later')),
      copy,
      notify,
      tracker: new InviteTracker(),
    });
    expect(result).toBeNull();
    expect(copy).not.toHaveBeenCalled();
    expect(notify).toHaveBeenCalledWith(
      'Could not create an invite code',
      expect.stringContaining('At most 5'),
    );
  });
});
