import { isoUtc, type Clock } from '../clock.js';
import type { StreamToken, Token } from '../contract/auth.js';
import { API_KEY_PREFIX } from '../domain/api-key.js';
import { usernameKey } from '../domain/username.js';
import type { Principal, UserRecord } from '../domain/user.js';
import { unauthorized } from '../errors.js';
import { decoyHash, verifyPassword } from './passwords.js';
import { CredentialCache } from './credential-cache.js';
import { LoginThrottle, type LoginAttempt } from './login-throttle.js';
import type { InvitesStore, UsersStore } from '../domain/ports.js';
import type { IssuedToken, TokenClaims, TokenSigner } from './tokens.js';

/** How long a stream token plays: a listening day, far shorter than a login. */
export const STREAM_TOKEN_TTL_SECONDS = 12 * 3600;

export function tokenResponse(issued: IssuedToken): Token {
  return {
    token: issued.token,
    tokenType: 'Bearer',
    expiresAt: isoUtc(issued.claims.exp * 1000),
    role: issued.claims.role,
    userId: issued.claims.sub,
  };
}

/** What the auth service asks of app passwords (services/api-key-service.ts). */
export interface AppPasswords {
  authenticate(key: string, client?: string | null, userId?: string): Principal | null;
  matchToken(userId: string, token: string, salt: string, client: string | null): Principal | null;
}

/** Login and token verification. */
export class AuthService {
  private readonly throttle: LoginThrottle;
  private readonly verified: CredentialCache;

  constructor(
    private readonly users: UsersStore & Pick<InvitesStore, 'findInvite'>,
    private readonly signer: TokenSigner,
    private readonly clock: Clock,
    private readonly tokenTtlSeconds: number,
    /** Bearer values that are app passwords (API keys), not JWTs (docs/API.md, App passwords). */
    private readonly apiKeys?: AppPasswords,
  ) {
    this.throttle = new LoginThrottle(clock);
    this.verified = new CredentialCache(clock);
  }

  async login(username: string, password: string, clientAddress: string): Promise<Token> {
    const user = await this.checkPassword(username, password, clientAddress);
    const current = (await this.users.update(user.id, { lastLogin: this.clock.now() })) ?? user;
    return tokenResponse(this.issueFor(current));
  }

  /**
   * The account behind a username and password sent with a request (Subsonic's `u` + `p`), under the
   * same guessing limits as login: 401 `invalid_credentials`, or 429 `too_many_attempts`. The
   * password may be the account's or one of its app passwords (which then acts as it). Unlike
   * login it issues no token and records no sign-in. A pair verified in the last few minutes is
   * accepted without scrypt (services/credential-cache.ts).
   */
  async verifyCredentials(
    username: string,
    password: string,
    clientAddress: string,
    client: string | null = null,
  ): Promise<Principal> {
    const account = usernameKey(username);
    // Locks hold for an app password too: a locked pair waits, as it would at /auth/login.
    const attempt = this.throttle.begin(account, clientAddress);
    const known = this.users.findByUsername(username);
    const app = known && this.apiKeys?.authenticate(password, client, known.id);
    if (app) {
      attempt.succeeded();
      return app;
    }
    const user = await this.checkPassword(username, password, clientAddress, true, attempt);
    return {
      userId: user.id,
      username: user.username,
      role: user.role,
      expiresAt: this.clock.now(),
      inviteId: null,
    };
  }

  /**
   * Subsonic token sign-in (`t = md5(password + s)`): the account when `token` matches one of its
   * app passwords, else null, counted as a failed login. The account password cannot be checked
   * this way (Melon keeps only its scrypt hash), so it never matches.
   */
  verifyAppToken(
    username: string,
    token: string,
    salt: string,
    clientAddress: string,
    client: string | null,
  ): Principal | null {
    const attempt = this.throttle.begin(usernameKey(username), clientAddress);
    const known = this.users.findByUsername(username);
    const app = known ? (this.apiKeys?.matchToken(known.id, token, salt, client) ?? null) : null;
    if (app) attempt.succeeded();
    else attempt.failed();
    return app;
  }

  private async checkPassword(
    username: string,
    password: string,
    clientAddress: string,
    useCache = false,
    begun?: LoginAttempt,
  ): Promise<UserRecord> {
    const account = usernameKey(username);
    const known = this.users.findByUsername(username);
    const stamp = known && {
      id: known.id,
      passwordHash: known.passwordHash.hash,
      tokenVersion: known.tokenVersion,
    };
    // Locks hold for a remembered password too: a locked pair waits, as it would at /auth/login.
    const attempt = begun ?? this.throttle.begin(account, clientAddress);
    if (useCache && known && this.verified.lookup(account, password, stamp) !== null) {
      attempt.succeeded();
      return known;
    }
    const user = this.users.findByUsername(username);
    // An unknown name costs one scrypt too, so timing does not reveal which names exist.
    const matches = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
    if (!user || !matches) {
      attempt.failed();
      throw unauthorized('invalid_credentials', 'Username or password is wrong');
    }
    attempt.succeeded();
    if (useCache)
      this.verified.remember(account, password, {
        id: user.id,
        passwordHash: user.passwordHash.hash,
        tokenVersion: user.tokenVersion,
      });
    return user;
  }

  issueFor(user: UserRecord): IssuedToken {
    return this.signer.sign(
      { sub: user.id, role: user.role, name: user.username, tv: user.tokenVersion },
      this.tokenTtlSeconds,
    );
  }

  /**
   * A token that only plays audio, for an address (the page's <audio> element cannot send a
   * header): a full session token in a URL would leak through history, copies and screenshots and
   * act as the member everywhere. It carries the account's tokenVersion, so whatever ends the
   * account's sessions ends it too. Never issued to a Server token (its route does not allow it).
   */
  issueStreamToken(caller: Principal): StreamToken {
    const user = caller.userId ? this.users.findById(caller.userId) : undefined;
    if (!user) throw unauthorized('invalid_token', 'The token is invalid, expired or revoked');
    const issued = this.signer.sign(
      { sub: user.id, role: user.role, name: user.username, tv: user.tokenVersion, scope: 'stream' },
      STREAM_TOKEN_TTL_SECONDS,
    );
    return { token: issued.token, expiresAt: isoUtc(issued.claims.exp * 1000) };
  }

  /**
   * The caller behind a bearer token, or null. Account tokens must still match their user's record
   * (deleted users, new passwords, renames and role changes bump tokenVersion); a Server token is
   * good only until its invite has made a user. An API key (`melon_…`) stands for its account. A
   * stream token is refused here: it is good only in the address of a route that takes one.
   */
  authenticate(token: string): Principal | null {
    if (token.startsWith(API_KEY_PREFIX)) return this.apiKeys?.authenticate(token) ?? null;
    const claims = this.signer.verify(token);
    if (!claims || claims.scope !== undefined) return null;
    return this.principalOf(claims);
  }

  /**
   * The caller behind a token given in an address (`access_token`), or null: only a stream token,
   * never a login token, a Server token or an API key, so a URL never carries a full session.
   */
  authenticateStream(token: string): Principal | null {
    const claims = this.signer.verify(token);
    if (!claims || claims.scope !== 'stream' || claims.role === 'Server') return null;
    return this.principalOf(claims);
  }

  private principalOf(claims: TokenClaims): Principal | null {
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
