import { createHmac, randomBytes } from 'node:crypto';
import { MINUTE_MS, type Clock } from '../clock.js';

/** How long a verified username + password pair is trusted without running scrypt again. */
export const CREDENTIAL_CACHE_MS = 10 * MINUTE_MS;
const MAX_ENTRIES = 256;

interface Entry {
  userId: string;
  /** The stored hash the password was checked against: a new password makes the entry useless. */
  passwordHash: string;
  tokenVersion: number;
  untilMs: number;
}

/**
 * Remembers recently verified username + password pairs. Subsonic clients that sign in with `p`
 * send the password with every request (a page of covers is dozens of requests), and one scrypt
 * check costs ~50 ms and 32 MiB, so checking each would make browsing slow and the server easy to
 * load. Only successes are kept, under an HMAC with a key made per process (never the password
 * itself), for CREDENTIAL_CACHE_MS; an entry counts only while the user's stored hash and token
 * version are the ones it was made under (a new password, a role change or deletion ends it).
 */
export class CredentialCache {
  private readonly key = randomBytes(32);
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: Clock) {}

  private digest(account: string, password: string): string {
    return createHmac('sha256', this.key).update(account).update('\0').update(password).digest('base64url');
  }

  /** The user id of a pair verified recently against this very hash and token version, or null. */
  lookup(
    account: string,
    password: string,
    current: { id: string; passwordHash: string; tokenVersion: number } | undefined,
  ): string | null {
    const digest = this.digest(account, password);
    const entry = this.entries.get(digest);
    if (!entry) return null;
    const fresh =
      entry.untilMs > this.clock.now() &&
      current !== undefined &&
      current.id === entry.userId &&
      current.passwordHash === entry.passwordHash &&
      current.tokenVersion === entry.tokenVersion;
    if (!fresh) {
      this.entries.delete(digest);
      return null;
    }
    return entry.userId;
  }

  remember(
    account: string,
    password: string,
    user: { id: string; passwordHash: string; tokenVersion: number },
  ): void {
    if (this.entries.size >= MAX_ENTRIES) {
      // Maps iterate in insertion order: the oldest entry goes first.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(this.digest(account, password), {
      userId: user.id,
      passwordHash: user.passwordHash,
      tokenVersion: user.tokenVersion,
      untilMs: this.clock.now() + CREDENTIAL_CACHE_MS,
    });
  }
}
