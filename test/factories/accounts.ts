import type { AccountRole, Principal, UserRecord } from '../../server/domain/user.js';

let counter = 0;

/**
 * A user record for a fake users store (test/fakes/). Its password hash is a placeholder that no
 * password matches; a test that logs in sets a real one (server/services/passwords.ts).
 */
export function makeUserRecord(overrides: Partial<UserRecord> = {}): UserRecord {
  counter += 1;
  const role = overrides.role ?? 'User';
  return {
    id: `user-${counter}`,
    username: `${role.toLowerCase()}-${counter}`,
    passwordHash: { algorithm: 'scrypt', salt: '', hash: '', N: 2, r: 1, p: 1, keyLength: 32 },
    role,
    publicStats: false,
    publicStatsChosen: false,
    tokenVersion: 0,
    createdAt: 0,
    lastLogin: null,
    ...overrides,
  };
}

/** The caller a verified token of this user stands for. */
export function principalOf(user: Pick<UserRecord, 'id' | 'username' | 'role'>): Principal {
  return { userId: user.id, username: user.username, role: user.role, expiresAt: Infinity, inviteId: null };
}

/** A caller of a role, for rules that only look at the role. */
export function principalWithRole(role: AccountRole, userId = `caller-${role}`): Principal {
  return { userId, username: userId, role, expiresAt: Infinity, inviteId: null };
}
