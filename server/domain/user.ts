import type { AccountRole, InviteRole, Role } from '../contract/users.js';
import { unauthorized } from '../errors.js';

// The roles are part of the API (tokens and users name them), so the contract declares them.
export {
  ACCOUNT_ROLES,
  INVITE_ROLES,
  ROLES,
  type AccountRole,
  type InviteRole,
  type Role,
} from '../contract/users.js';

export interface PasswordHash {
  algorithm: 'scrypt';
  /** base64 */
  salt: string;
  /** base64 */
  hash: string;
  N: number;
  r: number;
  p: number;
  keyLength: number;
}

export interface UserRecord {
  id: string;
  username: string;
  passwordHash: PasswordHash;
  role: AccountRole;
  publicStats: boolean;
  /**
   * Whether the user set `publicStats` themselves. A user who never chose follows the default, so a
   * later change of the default reaches them and never someone who chose (docs/API.md, Users).
   */
  publicStatsChosen: boolean;
  /** The password is the one Melon generated and printed (first start, reset-password) until changed. */
  passwordGenerated?: boolean;
  /** Tokens carry the version they were issued at; bumping it revokes them all. */
  tokenVersion: number;
  /** epoch ms */
  createdAt: number;
  /** epoch ms, or null before the first login */
  lastLogin: number | null;
}

export interface InviteRecord {
  id: string;
  /** Upper-case, from INVITE_ALPHABET. */
  code: string;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  /** When the code was exchanged for a Server token. */
  usedAt: number | null;
  /** When the Server token made its one user. */
  redeemedAt: number | null;
  /** When the code was revoked (by an Admin, or because of guessing). */
  revokedAt: number | null;
  /** The user the code's Server token made (absent in records from before it was kept). */
  joinedUserId?: string | null;
  /** The role the code's account gets (absent in records from before it could be chosen: User). */
  role?: InviteRole;
}

/** The caller, as proven by a verified token. */
export interface Principal {
  userId: string | null;
  username: string | null;
  role: Role;
  /** epoch ms */
  expiresAt: number;
  /** Server tokens: the invite they came from. */
  inviteId: string | null;
}

/**
 * The one privacy rule of listening statistics: a caller reads their own, an Admin anyone's, and
 * everyone those of a user who keeps theirs public.
 */
export function canReadStats(caller: Principal, owner: Pick<UserRecord, 'id' | 'publicStats'>): boolean {
  return caller.role === 'Admin' || caller.userId === owner.id || owner.publicStats;
}

/** The caller's account id; a token without an account (a Server token) gets a 401 `forbidden_role`. */
export function accountOf(caller: Principal): string {
  if (caller.userId === null) throw unauthorized('forbidden_role', 'This token has no account');
  return caller.userId;
}
