import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { MINUTE_MS, isoUtc, type Clock } from '../clock.js';
import type { ApiKey, NewApiKey } from '../contract/users.js';
import { API_KEY_PREFIX, looksLikeApiKey, type ApiKeyRecord } from '../domain/api-key.js';
import { newId } from '../domain/ids.js';
import { accountOf, type Principal } from '../domain/user.js';
import { conflict, messageOf, notFound, unauthorized } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ApiKeysStore } from '../domain/ports.js';
import type { AppPasswordSealer } from './app-password-sealer.js';

/** How many app passwords one account may hold (docs/API.md, App passwords). */
export const MAX_API_KEYS_PER_USER = 20;
/** `lastUsedAt` is written at most this often per key: using a key must not make the disk work. */
export const API_KEY_TOUCH_INTERVAL_MS = MINUTE_MS;
/**
 * Keys do not expire; the principal still needs a date (`/auth/check` shows it), so it is the
 * latest one an ISO 8601 UTC string can hold with four digits.
 */
export const API_KEY_EXPIRES_AT = Date.UTC(9999, 11, 31, 23, 59, 59);
/** Client names are shown on the page; a longer one is cut. */
const CLIENT_NAME_MAX = 64;

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const md5Hex = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

const viewOf = (record: ApiKeyRecord): ApiKey => ({
  id: record.id,
  name: record.name,
  createdAt: isoUtc(record.createdAt),
  lastUsedAt: record.lastUsedAt === null ? null : isoUtc(record.lastUsedAt),
  lastUsedBy: record.lastUsedBy ?? null,
  tokenSignIn: record.sealed !== undefined,
});

/** Whom a request about keys is for: the caller, or (for an Admin) the member named by `userId`. */
export interface KeyOwner {
  userId?: string | undefined;
}

/**
 * App passwords (API keys) for music apps: made, listed and deleted by their own account (or an
 * Admin for a member), and turned back into that account's principal on every request. Protocol
 * adapters call `authenticate` (a key sent whole: bearer, `apiKey`, `p`) or `matchToken` (Subsonic's
 * `t` + `s`); the guessing limits of a login are the auth service's business.
 */
export class ApiKeyService {
  /** Keys whose lastUsedAt write is queued, so a burst of requests makes one write. */
  private readonly touching = new Set<string>();

  constructor(
    private readonly users: ApiKeysStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly sealer: AppPasswordSealer,
  ) {}

  async create(caller: Principal, name: string, owner: KeyOwner = {}): Promise<NewApiKey> {
    const userId = this.ownerOf(caller, owner);
    const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
    const record: ApiKeyRecord = {
      id: newId(),
      userId,
      name,
      hash: hashOf(key),
      sealed: this.sealer.seal(key),
      createdAt: this.clock.now(),
      lastUsedAt: null,
      lastUsedBy: null,
    };
    const outcome = await this.users.addApiKey(record, MAX_API_KEYS_PER_USER);
    if (outcome === 'too_many')
      throw conflict(
        'too_many_api_keys',
        `An account may hold at most ${MAX_API_KEYS_PER_USER} app passwords; delete one first`,
      );
    if (outcome === 'no_user') {
      // The member went while the request ran, or (for the caller) its token is no longer good.
      if (userId !== caller.userId) throw notFound('user_not_found', `User '${userId}' not found`);
      throw unauthorized('invalid_token', 'The token is invalid, expired or revoked');
    }
    return { id: record.id, name: record.name, key, createdAt: isoUtc(record.createdAt) };
  }

  /** The keys of the caller (or of a member, for an Admin), oldest first; never the key or its hash. */
  list(caller: Principal, owner: KeyOwner = {}): ApiKey[] {
    return this.users
      .apiKeysOf(this.ownerOf(caller, owner))
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
      .map(viewOf);
  }

  /** Deletes one key; it stops working at once. Another account's key is not found. */
  async delete(caller: Principal, id: string, owner: KeyOwner = {}): Promise<void> {
    if (!(await this.users.removeApiKey(this.ownerOf(caller, owner), id)))
      throw notFound('api_key_not_found', `App password '${id}' not found`);
  }

  /**
   * The principal a key stands for, or null: an unknown or deleted key, or a key whose account is
   * gone. The role is the account's current one. Looked up by the key's SHA-256: the key has 256
   * random bits, so its hash is as good as the key for finding it and reveals nothing by timing.
   * With `userId`, only a key of that account counts (a Subsonic `u` + `p`).
   */
  authenticate(key: string, client: string | null = null, userId?: string): Principal | null {
    if (!looksLikeApiKey(key)) return null;
    const record = this.users.findApiKeyByHash(hashOf(key));
    if (!record || (userId !== undefined && record.userId !== userId)) return null;
    return this.principalOf(record, client);
  }

  /**
   * Subsonic token sign-in: the principal when `token` is `md5(appPassword + salt)` for one of the
   * account's app passwords, else null. Every sealed key of the account is tried (an account has few)
   * and compared in constant time.
   */
  matchToken(userId: string, token: string, salt: string, client: string | null): Principal | null {
    const given = Buffer.from(token.toLowerCase(), 'utf8');
    let found: ApiKeyRecord | null = null;
    for (const record of this.users.apiKeysOf(userId)) {
      if (record.sealed === undefined) continue;
      const secret = this.sealer.open(record.sealed);
      if (secret === null) continue;
      const expected = Buffer.from(md5Hex(secret + salt), 'utf8');
      if (expected.length === given.length && timingSafeEqual(expected, given)) found ??= record;
    }
    return found && this.principalOf(found, client);
  }

  private principalOf(record: ApiKeyRecord, client: string | null): Principal | null {
    const user = this.users.findById(record.userId);
    if (!user) return null;
    this.noteUse(record, client === null ? null : client.slice(0, CLIENT_NAME_MAX));
    return {
      userId: user.id,
      username: user.username,
      role: user.role,
      expiresAt: API_KEY_EXPIRES_AT,
      inviteId: null,
    };
  }

  /** The account a request is about: the caller's own, or any member's for an Admin. */
  private ownerOf(caller: Principal, owner: KeyOwner): string {
    const self = accountOf(caller);
    if (owner.userId === undefined || owner.userId === self) return self;
    if (caller.role !== 'Admin')
      throw unauthorized('forbidden_role', "Only an Admin manages another member's app passwords");
    if (!this.users.findById(owner.userId))
      throw notFound('user_not_found', `User '${owner.userId}' not found`);
    return owner.userId;
  }

  private noteUse(record: ApiKeyRecord, client: string | null): void {
    const now = this.clock.now();
    const sameClient = client === null || client === (record.lastUsedBy ?? null);
    if (record.lastUsedAt !== null && now - record.lastUsedAt < API_KEY_TOUCH_INTERVAL_MS && sameClient)
      return;
    if (this.touching.has(record.id)) return;
    this.touching.add(record.id);
    void this.users
      .touchApiKey(record.id, now, client)
      .catch((error: unknown) =>
        this.logger.warn('could not record an app password use', {
          keyId: record.id,
          error: messageOf(error),
        }),
      )
      .finally(() => this.touching.delete(record.id));
  }
}
