import type { InviteRecord } from './user.js';

/**
 * The rules of invite codes that every store of them keeps alike (the repository and its fake), so
 * what makes a code usable, spent or revocable is written once.
 */

/** A code that can still be exchanged for a Server token: not used, not revoked, not expired. */
export function isActiveInvite(invite: InviteRecord, now: number): boolean {
  return invite.usedAt === null && invite.revokedAt === null && now < invite.expiresAt;
}

/** The active invite with this code, if any. */
export function findActiveInvite(
  invites: readonly InviteRecord[],
  code: string,
  now: number,
): InviteRecord | undefined {
  return invites.find((invite) => invite.code === code && isActiveInvite(invite, now));
}

/** Why a new invite may not be kept beside the active ones, or null when it may. */
export function refuseNewInvite(
  invites: readonly InviteRecord[],
  invite: InviteRecord,
  maxActive: number,
): 'too_many' | 'code_clash' | null {
  const active = invites.filter((other) => isActiveInvite(other, invite.createdAt));
  if (active.length >= maxActive) return 'too_many';
  if (active.some((other) => other.code === invite.code)) return 'code_clash';
  return null;
}

/**
 * The newest invite with this code that could still make a user: not yet exchanged and not
 * expired, or exchanged but its one user not made yet (its Server token still alive).
 */
export function revocableInvite(
  invites: readonly InviteRecord[],
  code: string,
  now: number,
  serverTokenMs: number,
): InviteRecord | undefined {
  return invites
    .filter((record) => record.code === code && record.redeemedAt === null && record.revokedAt === null)
    .filter((record) =>
      record.usedAt === null ? now < record.expiresAt : now < record.usedAt + serverTokenMs,
    )
    .sort((a, b) => b.createdAt - a.createdAt)[0];
}

/**
 * Marks an invite as having made `user`, in the step that adds the user; false (and no change)
 * when it is gone, already made a user, or was revoked.
 */
export function redeemInvite(
  invite: InviteRecord | undefined,
  user: { id: string; createdAt: number },
): boolean {
  if (!invite || invite.redeemedAt !== null || invite.revokedAt !== null) return false;
  invite.redeemedAt = user.createdAt;
  invite.joinedUserId = user.id;
  return true;
}
