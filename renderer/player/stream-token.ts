import type { StreamToken } from '../../server/contract/auth.js';
import type { Api } from '../api.js';

/** How long before its expiry a token is renewed, so an address made now still plays a long album. */
const RENEW_BEFORE_MS = 60 * 60_000;

/**
 * The token the player puts in its audio addresses: a stream token, which plays audio and nothing
 * else, so an address that leaks (history, a copied link, a screenshot) cannot act as the member.
 * The session token never goes into an address.
 */
export class StreamTokens {
  private current: StreamToken | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly api: Api,
    private readonly now: () => number = Date.now,
  ) {}

  /** A token good for at least the next hour: the one in hand, or a new one. */
  get(): Promise<string> {
    const current = this.current;
    if (current && Date.parse(current.expiresAt) - this.now() > RENEW_BEFORE_MS)
      return Promise.resolve(current.token);
    return this.renew();
  }

  /** A new token, e.g. when the audio element was refused the one in hand. Concurrent calls share one request. */
  renew(): Promise<string> {
    this.pending ??= this.api
      .json<StreamToken>('/api/users/stream-token', { method: 'POST' })
      .then((issued) => {
        this.current = issued;
        return issued.token;
      })
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }
}
