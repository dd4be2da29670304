import type { User } from '../contract/users.js';
import { usernameProblem } from '../domain/username.js';
import { isoUtc, type Clock } from '../clock.js';
import { newId } from '../domain/ids.js';
import { accountOf, type AccountRole, type Principal, type UserRecord } from '../domain/user.js';
import { badRequest, conflict, notFound, unauthorized } from '../errors.js';
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS } from './login-throttle.js';
import { generatePassword, hashPassword, verifyPassword } from './passwords.js';
import type { AccountData, InvitesStore, UsersStore } from '../domain/ports.js';
import { FailureWindow, reserveAttempt } from './rate-limiter.js';

export function userView(user: UserRecord): User {
  return {
    id: user.id,
    username: user.username,
    role: user.role,
    publicStats: user.publicStats,
    createdAt: isoUtc(user.createdAt),
    lastLogin: user.lastLogin === null ? null : isoUtc(user.lastLogin),
  };
}

export interface NewUser {
  username: string;
  password: string;
  role?: AccountRole;
}

/** The first Admin made on an empty store; `generatedPassword` is shown once and never stored. */
export interface FirstAdmin {
  username: string;
  generatedPassword: string | null;
}

export class UserService {
  /** Wrong current passwords per user id: the same limit as login, so a stolen token cannot guess more. */
  private readonly passwordFailures: FailureWindow;

  constructor(
    private readonly users: UsersStore & Pick<InvitesStore, 'findInvite'>,
    /** What else is kept per account (ratings, favourites, a play queue): it goes with the account. */
    private readonly accountData: readonly AccountData[],
    private readonly clock: Clock,
  ) {
    this.passwordFailures = new FailureWindow(clock, LOGIN_WINDOW_MS, LOGIN_MAX_FAILURES);
  }

  /** On first start with no users, makes the Admin account (docs/API.md, Users). */
  async ensureFirstAdmin(username: string, configuredPassword: string | null): Promise<FirstAdmin | null> {
    if (this.users.count() > 0) return null;
    const password = configuredPassword ?? generatePassword();
    await this.insert({ username, password, role: 'Admin' }, null, configuredPassword === null);
    return { username, generatedPassword: configuredPassword === null ? password : null };
  }

  /**
   * Admins make any role; a Server token (a redeemed invite) makes exactly one account of the role the
   * Admin chose for the invite, whatever role it asks for.
   */
  async create(caller: Principal, request: NewUser): Promise<User> {
    if (caller.role === 'Server') {
      const invite = caller.inviteId ? this.users.findInvite(caller.inviteId) : undefined;
      return this.insert({ ...request, role: invite?.role ?? 'User' }, caller.inviteId);
    }
    return this.insert(request, null);
  }

  list(): User[] {
    return this.users.list().map(userView);
  }

  get(id: string): UserRecord {
    const user = this.users.findById(id);
    if (!user) throw notFound('user_not_found', `User '${id}' not found`);
    return user;
  }

  async setPublicStats(caller: Principal, publicStats: boolean): Promise<User> {
    const user = await this.users.update(accountOf(caller), { publicStats, publicStatsChosen: true });
    if (!user) throw unauthorized('invalid_token', 'The account of this token no longer exists');
    return userView(user);
  }

  /**
   * Changes a password. People change their own by giving the current one; an Admin may reset
   * another account's without it. Every token of that account stops working.
   */
  async changePassword(
    caller: Principal,
    request: { userId?: string; currentPassword?: string; newPassword: string },
  ): Promise<User> {
    const targetId = request.userId ?? accountOf(caller);
    const ownAccount = targetId === caller.userId;
    // Refused before the lookup: a non-Admin gets the same answer for an unknown id as for a real
    // one, so the endpoint does not tell which accounts exist. (Admins list the accounts anyway.)
    if (!ownAccount && caller.role !== 'Admin') {
      throw unauthorized('forbidden_role', "Only an Admin may change another account's password");
    }
    const target = this.get(targetId);
    if (ownAccount) {
      if (request.currentPassword === undefined) {
        throw badRequest('invalid_parameter', "Parameter 'currentPassword' is required", {
          parameter: 'currentPassword',
        });
      }
      const withdraw = reserveAttempt(
        [[this.passwordFailures, targetId]],
        'Too many wrong passwords; try again later',
      );
      if (!(await verifyPassword(request.currentPassword, target.passwordHash))) {
        throw unauthorized('invalid_credentials', 'The current password is wrong');
      }
      withdraw();
    }
    const passwordHash = await hashPassword(request.newPassword);
    const updated = await this.users.update(targetId, {
      passwordHash,
      tokenVersion: target.tokenVersion + 1,
      // An Admin's reset of another account hands over a password someone else chose.
      passwordGenerated: false,
    });
    if (!updated) throw notFound('user_not_found', `User '${targetId}' not found`);
    return userView(updated);
  }

  /**
   * Recovery by whoever holds the machine (`melon reset-password`, while the server is stopped): a
   * new generated password, and every token of the account stops working.
   */
  async resetPassword(username: string): Promise<{ user: User; password: string }> {
    const target = this.users.findByUsername(username);
    if (!target) throw notFound('user_not_found', `No user named '${username}'`);
    const password = generatePassword();
    const updated = await this.users.update(target.id, {
      passwordHash: await hashPassword(password),
      tokenVersion: target.tokenVersion + 1,
      passwordGenerated: true,
    });
    if (!updated) throw notFound('user_not_found', `No user named '${username}'`);
    return { user: userView(updated), password };
  }

  /** Changes an account's role (Admin); its tokens stop working. The last Admin keeps the role. */
  async setRole(userId: string, role: AccountRole): Promise<User> {
    const outcome = await this.users.setRole(userId, role);
    if (outcome === 'last_admin')
      throw conflict('last_admin', 'The last Admin cannot be given another role; make another Admin first');
    if (outcome === 'not_found') throw notFound('user_not_found', `User '${userId}' not found`);
    return userView(outcome);
  }

  /** Deletes an account (Admin). The last Admin cannot be deleted: nobody could manage Melon then. */
  async delete(userId: string): Promise<void> {
    const outcome = await this.users.remove(userId);
    if (outcome === 'last_admin') throw conflict('last_admin', 'The last Admin account cannot be deleted');
    if (outcome === 'not_found') throw notFound('user_not_found', `User '${userId}' not found`);
    // Nothing of it stays behind: its ratings no longer count in anyone's averages.
    for (const data of this.accountData) await data.removeUser(userId);
  }

  private async insert(request: NewUser, redeemInviteId: string | null, generated = false): Promise<User> {
    const problem = usernameProblem(request.username);
    if (problem !== null) throw badRequest('invalid_username', problem);
    const user: UserRecord = {
      id: newId(),
      username: request.username,
      passwordHash: await hashPassword(request.password),
      role: request.role ?? 'User',
      // Visible to the household unless the user chooses otherwise (docs/API.md, Users).
      publicStats: true,
      publicStatsChosen: false,
      tokenVersion: 0,
      createdAt: this.clock.now(),
      lastLogin: null,
      ...(generated ? { passwordGenerated: true } : {}),
    };
    const outcome = await this.users.add(user, redeemInviteId);
    if (outcome === 'username_taken')
      throw conflict('username_taken', `The username '${request.username}' is taken`);
    if (outcome === 'invite_spent')
      throw unauthorized('invalid_token', 'This invite token has been used already');
    return userView(user);
  }
}
