import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/clock.js';
import type { InviteRecord } from '../../../server/domain/user.js';
import { AppError } from '../../../server/errors.js';
import { createMemoryLogger } from '../../../server/logger.js';
import { InviteService } from '../../../server/services/invite-service.js';
import { TokenSigner } from '../../../server/services/tokens.js';
import type { UsersRepo } from '../../../server/store/users-repo.js';

/**
 * A users store whose invite lookups take a while (a slow disk), so that many exchanges are in
 * flight at once; `right` is the only code that matches.
 */
function slowRepo(right: string): UsersRepo {
  const consumeInvite = async (code: string, now: number): Promise<InviteRecord | undefined> => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (code !== right) return undefined;
    return {
      id: 'invite-1',
      code,
      createdBy: 'admin',
      createdAt: now,
      expiresAt: now + 60_000,
      usedAt: now,
      redeemedAt: null,
      revokedAt: null,
    };
  };
  return { consumeInvite } as unknown as UsersRepo;
}

function service(right = 'RGHT') {
  const clock = new ManualClock();
  const invites = new InviteService(
    slowRepo(right),
    new TokenSigner(randomBytes(32), clock),
    clock,
    createMemoryLogger(),
  );
  return { clock, invites };
}

const outcome = (attempt: Promise<unknown>) =>
  attempt.then(
    () => 'ok',
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );

describe('InviteService.exchange', () => {
  it('counts exchanges in flight against the per-address limit', async () => {
    const { invites } = service();
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, () => outcome(invites.exchange('ZZZZ', '192.0.2.1'))),
    );
    expect(outcomes.filter((code) => code === 'invalid_invite')).toHaveLength(10);
    expect(outcomes.filter((code) => code === 'too_many_attempts')).toHaveLength(20);
    // Another address is not affected.
    expect(await outcome(invites.exchange('RGHT', '192.0.2.2'))).toBe('ok');
  });

  it('does not count a successful exchange as a failure', async () => {
    const { invites } = service();
    const outcomes = await Promise.all([
      ...Array.from({ length: 9 }, () => outcome(invites.exchange('ZZZZ', '192.0.2.1'))),
      outcome(invites.exchange('RGHT', '192.0.2.1')),
    ]);
    expect(outcomes.sort()).toEqual([...Array<string>(9).fill('invalid_invite'), 'ok']);
    expect(await outcome(invites.exchange('ZZZZ', '192.0.2.1'))).toBe('invalid_invite');
    expect(await outcome(invites.exchange('RGHT', '192.0.2.1'))).toBe('too_many_attempts');
  });
});
