import { createHash, randomBytes } from 'node:crypto';
import { MINUTE_MS, isoUtc, type Clock } from '../clock.js';
import type { ApiKey, NewApiKey } from '../contract/users.js';
import { API_KEY_PREFIX, looksLikeApiKey, type ApiKeyRecord } from '../domain/api-key.js';
import { newId } from '../domain/ids.js';
import { accountOf, type Principal } from '../domain/user.js';
import { conflict, messageOf, notFound, unauthorized } from '../errors.js';
import type { Logger } from '../logger.js';
import type { UsersRepo } from '../store/users-repo.js';

/** How many keys one account may hold (docs/API.md, API keys). */
export const MAX_API_KEYS_PER_USER = 20;
/** `lastUsedAt` is written at most this often per key: using a key must not make the disk work. */
export const API_KEY_TOUCH_INTERVAL_MS = MINUTE_MS;
/**
 * Keys do not expire; the principal still needs a date (`/auth/check` shows it), so it is the
 * latest one an ISO 8601 UTC string can hold with four digits.
 */
export const API_KEY_EXPIRES_AT = Date.UTC(9999, 11, 31, 23, 59, 59);

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

const viewOf = (record: ApiKeyRecord): ApiKey => ({
  id: record.id,
  name: record.name,
  createdAt: isoUtc(record.createdAt),
  lastUsedAt: record.lastUsedAt === null ? null : isoUtc(record.lastUsedAt),
});

/**
 * API keys for music apps: made, listed and deleted by their own account, and turned back into
 * that account's principal on every request. Protocol adapters (the Subsonic `apiKey` parameter)
 * call `authenticate` as the native API's bearer check does.
 */
export class ApiKeyService {
  /** Keys whose lastUsedAt write is queued, so a burst of requests makes one write. */
  private readonly touching = new Set<string>();

  constructor(
    private readonly users: UsersRepo,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async create(caller: Principal, name: string): Promise<NewApiKey> {
    const userId = accountOf(caller);
    const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
    const record: ApiKeyRecord = {
      id: newId(),
      userId,
      name,
      hash: hashOf(key),
      createdAt: this.clock.now(),
      lastUsedAt: null,
    };
    const outcome = await this.users.addApiKey(record, MAX_API_KEYS_PER_USER);
    if (outcome === 'too_many')
      throw conflict(
        'too_many_api_keys',
        `An account may hold at most ${MAX_API_KEYS_PER_USER} API keys; delete one first`,
      );
    // The account was deleted while the request ran: its token is no longer good.
    if (outcome === 'no_user')
      throw unauthorized('invalid_token', 'The token is invalid, expired or revoked');
    return { id: record.id, name: record.name, key, createdAt: isoUtc(record.createdAt) };
  }

  /** The caller's keys, oldest first; never the key or its hash. */
  list(caller: Principal): ApiKey[] {
    return this.users
      .apiKeysOf(accountOf(caller))
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
      .map(viewOf);
  }

  /** Deletes one of the caller's keys; it stops working at once. Another account's key is not found. */
  async delete(caller: Principal, id: string): Promise<void> {
    if (!(await this.users.removeApiKey(accountOf(caller), id)))
      throw notFound('api_key_not_found', `API key '${id}' not found`);
  }

  /**
   * The principal a key stands for, or null: an unknown or deleted key, or a key whose account is
   * gone. The role is the account's current one. Looked up by the key's SHA-256: the key has 256
   * random bits, so its hash is as good as the key for finding it and reveals nothing by timing.
   */
  authenticate(key: string): Principal | null {
    if (!looksLikeApiKey(key)) return null;
    const record = this.users.findApiKeyByHash(hashOf(key));
    if (!record) return null;
    const user = this.users.findById(record.userId);
    if (!user) return null;
    this.noteUse(record);
    return {
      userId: user.id,
      username: user.username,
      role: user.role,
      expiresAt: API_KEY_EXPIRES_AT,
      inviteId: null,
    };
  }

  private noteUse(record: ApiKeyRecord): void {
    const now = this.clock.now();
    if (record.lastUsedAt !== null && now - record.lastUsedAt < API_KEY_TOUCH_INTERVAL_MS) return;
    if (this.touching.has(record.id)) return;
    this.touching.add(record.id);
    void this.users
      .touchApiKey(record.id, now)
      .catch((error: unknown) =>
        this.logger.warn('could not record an API key use', { keyId: record.id, error: messageOf(error) }),
      )
      .finally(() => this.touching.delete(record.id));
  }
}
