import { MINUTE_MS, isoUtc, type Clock } from '../clock.js';
import { API_KEY_PREFIX } from '../domain/api-key.js';
import type { Principal, UserRecord } from '../domain/user.js';
import { unauthorized } from '../errors.js';
import type { UsersRepo } from '../store/users-repo.js';
import { decoyHash, verifyPassword } from './passwords.js';
import { FailureWindow, reserveAttempt } from './rate-limiter.js';
import type { IssuedToken, TokenSigner } from './tokens.js';

/** The body of a successful login or code exchange (docs/API.md, Tokens). */
export interface TokenResponse {
  token: string;
  tokenType: 'Bearer';
  expiresAt: string;
  role: string;
  userId: string | null;
}

export function tokenResponse(issued: IssuedToken): TokenResponse {
  return {
    token: issued.token,
    tokenType: 'Bearer',
    expiresAt: isoUtc(issued.claims.exp * 1000),
    role: issued.claims.role,
    userId: issued.claims.sub,
  };
}

export const LOGIN_WINDOW_MS = 15 * MINUTE_MS;
export const LOGIN_MAX_FAILURES = 10;

/** Login and token verification. */
export class AuthService {
  private readonly failuresByName: FailureWindow;
  private readonly failuresByAddress: FailureWindow;

  constructor(
    private readonly users: UsersRepo,
    private readonly signer: TokenSigner,
    private readonly clock: Clock,
    private readonly tokenTtlSeconds: number,
    /** Bearer values that are API keys, not JWTs (docs/API.md, API keys). */
    private readonly apiKeys?: { authenticate(key: string): Principal | null },
  ) {
    this.failuresByName = new FailureWindow(clock, LOGIN_WINDOW_MS, LOGIN_MAX_FAILURES);
    this.failuresByAddress = new FailureWindow(clock, LOGIN_WINDOW_MS, LOGIN_MAX_FAILURES);
  }

  async login(username: string, password: string, clientAddress: string): Promise<TokenResponse> {
    const nameKey = username.toLocaleLowerCase('en');
    const withdraw = reserveAttempt(
      [
        [this.failuresByName, nameKey],
        [this.failuresByAddress, clientAddress],
      ],
      'Too many failed logins; try again later',
    );
    const user = this.users.findByUsername(username);
    // An unknown name costs one scrypt too, so timing does not reveal which names exist.
    const matches = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
    if (!user || !matches) throw unauthorized('invalid_credentials', 'Username or password is wrong');
    withdraw();
    const current = (await this.users.update(user.id, { lastLogin: this.clock.now() })) ?? user;
    return tokenResponse(this.issueFor(current));
  }

  issueFor(user: UserRecord): IssuedToken {
    return this.signer.sign(
      { sub: user.id, role: user.role, name: user.username, tv: user.tokenVersion },
      this.tokenTtlSeconds,
    );
  }

  /**
   * The caller behind a bearer token, or null. Account tokens must still match their user's record
   * (deleted users, new passwords, renames and role changes bump tokenVersion); a Server token is
   * good only until its invite has made a user. An API key (`melon_…`) stands for its account.
   */
  authenticate(token: string): Principal | null {
    if (token.startsWith(API_KEY_PREFIX)) return this.apiKeys?.authenticate(token) ?? null;
    const claims = this.signer.verify(token);
    if (!claims) return null;
    const expiresAt = claims.exp * 1000;
    if (claims.role === 'Server') {
      const invite = claims.invite ? this.users.findInvite(claims.invite) : undefined;
      if (!invite || invite.redeemedAt !== null || invite.revokedAt !== null) return null;
      return { userId: null, username: null, role: 'Server', expiresAt, inviteId: invite.id };
    }
    const user = claims.sub ? this.users.findById(claims.sub) : undefined;
    if (!user || user.tokenVersion !== claims.tv || user.role !== claims.role) return null;
    return { userId: user.id, username: user.username, role: user.role, expiresAt, inviteId: null };
  }
}
