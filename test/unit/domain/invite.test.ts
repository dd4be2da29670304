import { describe, expect, it } from 'vitest';
import type { InviteRecord } from '../../../server/domain/user.js';
import {
  findActiveInvite,
  redeemInvite,
  refuseNewInvite,
  revocableInvite,
} from '../../../server/domain/invite.js';

const HOUR = 3_600_000;

function invite(overrides: Partial<InviteRecord> = {}): InviteRecord {
  return {
    id: 'i1',
    code: 'ABCD2345',
    createdBy: 'admin',
    createdAt: 0,
    expiresAt: 24 * HOUR,
    usedAt: null,
    redeemedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

describe('invite rules', () => {
  it('finds a code only while it is unused, unrevoked and unexpired', () => {
    const code = invite();
    expect(findActiveInvite([code], 'ABCD2345', HOUR)).toBe(code);
    expect(findActiveInvite([code], 'ABCD2345', 24 * HOUR)).toBeUndefined();
    expect(findActiveInvite([invite({ usedAt: 1 })], 'ABCD2345', HOUR)).toBeUndefined();
    expect(findActiveInvite([invite({ revokedAt: 1 })], 'ABCD2345', HOUR)).toBeUndefined();
  });

  it('refuses a new code past the limit of active ones, or with the code of an active one', () => {
    const active = [invite({ id: 'a', code: 'AAAA2222' }), invite({ id: 'b', code: 'BBBB3333' })];
    expect(refuseNewInvite(active, invite({ id: 'c', code: 'CCCC4444' }), 2)).toBe('too_many');
    expect(refuseNewInvite(active, invite({ id: 'c', code: 'AAAA2222' }), 3)).toBe('code_clash');
    expect(refuseNewInvite(active, invite({ id: 'c', code: 'CCCC4444' }), 3)).toBeNull();
  });

  it('revokes the newest code that could still make a user, even once exchanged', () => {
    const older = invite({ id: 'old', createdAt: 0 });
    const newer = invite({ id: 'new', createdAt: 10 });
    expect(revocableInvite([older, newer], 'ABCD2345', HOUR, HOUR)?.id).toBe('new');
    const exchanged = invite({ usedAt: HOUR });
    expect(revocableInvite([exchanged], 'ABCD2345', 1.5 * HOUR, HOUR)).toBe(exchanged);
    expect(revocableInvite([exchanged], 'ABCD2345', 2 * HOUR, HOUR)).toBeUndefined();
    expect(revocableInvite([invite({ redeemedAt: 5 })], 'ABCD2345', HOUR, HOUR)).toBeUndefined();
  });

  it('lets a code make one user, never a second after it was redeemed or revoked', () => {
    const code = invite({ usedAt: 1 });
    expect(redeemInvite(code, { id: 'u1', createdAt: 7 })).toBe(true);
    expect(code).toMatchObject({ redeemedAt: 7, joinedUserId: 'u1' });
    expect(redeemInvite(code, { id: 'u2', createdAt: 8 })).toBe(false);
    expect(code.joinedUserId).toBe('u1');
    expect(redeemInvite(invite({ revokedAt: 1 }), { id: 'u3', createdAt: 9 })).toBe(false);
    expect(redeemInvite(undefined, { id: 'u4', createdAt: 9 })).toBe(false);
  });
});
