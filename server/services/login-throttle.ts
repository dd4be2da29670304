import { MINUTE_MS, type Clock } from '../clock.js';
import { tooManyRequests } from '../errors.js';
import { FailureWindow } from './rate-limiter.js';

/** The first lock of a pair; each lock after it lasts twice as long, up to LOCK_CAP_MS. */
export const FIRST_LOCK_MS = MINUTE_MS;
export const LOCK_CAP_MS = 15 * MINUTE_MS;
/** The contract's window: 10 failures from one address, or at one name from unknown addresses. */
export const LOGIN_WINDOW_MS = 15 * MINUTE_MS;
export const LOGIN_MAX_FAILURES = 10;
/** How many addresses an account remembers as its own devices (the oldest is forgotten first). */
const KNOWN_ADDRESSES_PER_ACCOUNT = 32;

interface PairState {
  /** How many locks this streak has had: the next lasts FIRST_LOCK_MS × 2^locks. */
  locks: number;
  lockedUntil: number;
}

/** A login attempt under way: say how it ended. */
export interface LoginAttempt {
  succeeded(): void;
  failed(): void;
}

/**
 * The login guessing limits. A household's own devices must not be locked out by someone else's
 * wrong guesses: a cross-site `<img>` in a browser at home, or a speaker with a stale password, can
 * send wrong logins for the Admin at any time. So:
 * - failures count per (address, account): 10 within 15 minutes lock that pair for 1 minute, and
 *   each failure after a lock locks it again for twice as long (2, 4, 8, then 15 minutes at most),
 *   until the pair signs in or stays quiet for 15 minutes after its last lock;
 * - one address has a ceiling across accounts: failed logins at 10 different names in 15 minutes,
 *   so one machine cannot walk through every name (its retries at one name are the pair's business);
 * - one account has a ceiling for addresses it has never signed in from (10 failures in 15 minutes),
 *   so guessing from many addresses at once stays bounded. An address that has signed in to the
 *   account before is never held by that ceiling: the owner's devices keep working while a guessing
 *   attack goes on elsewhere. Known addresses are kept in memory, so after a restart every address
 *   is new until it signs in again.
 * Every attempt counts against the windows before its password is checked (scrypt takes a while,
 * and guesses sent at once must not all pass the check); a success withdraws it.
 */
export class LoginThrottle {
  private readonly locks = new Map<string, PairState>();
  /** Attempts per pair, counted from their start (in flight or failed). */
  private readonly pairAttempts: FailureWindow;
  /** Failed attempts per pair, counted once the password was checked. */
  private readonly pairFailures: FailureWindow;
  private readonly byAddress: FailureWindow;
  private readonly byAccountFromUnknown: FailureWindow;
  private readonly knownAddresses = new Map<string, string[]>();

  constructor(private readonly clock: Clock) {
    const window = () => new FailureWindow(clock, LOGIN_WINDOW_MS, LOGIN_MAX_FAILURES);
    this.pairAttempts = window();
    this.pairFailures = window();
    this.byAddress = window();
    this.byAccountFromUnknown = window();
  }

  /**
   * Starts a login attempt at `account` (a username key) from `address`. Throws 429
   * `too_many_attempts` while any limit holds.
   */
  begin(account: string, address: string): LoginAttempt {
    const pair = `${address} ${account}`;
    const known = this.isKnown(account, address);
    const wait = Math.max(
      this.lockedForMs(pair),
      this.pairAttempts.retryAfterMs(pair) > 0 ? this.nextLockMs(pair) : 0,
      this.byAddress.retryAfterMs(address),
      known ? 0 : this.byAccountFromUnknown.retryAfterMs(account),
    );
    if (wait > 0)
      throw tooManyRequests('too_many_attempts', 'Too many failed logins; try again later', wait / 1000);
    // The address's ceiling counts the names it tries, not its retries at one name.
    const newName = this.pairAttempts.count(pair) === 0 && !this.locks.has(pair);
    const withdraw = [
      this.pairAttempts.reserve(pair),
      ...(newName ? [this.byAddress.reserve(address)] : []),
      ...(known ? [] : [this.byAccountFromUnknown.reserve(account)]),
    ];
    return {
      succeeded: () => {
        for (const undo of withdraw) undo();
        this.locks.delete(pair);
        this.remember(account, address);
      },
      failed: () => this.failed(pair),
    };
  }

  private failed(pair: string): void {
    const count = this.pairFailures.record(pair);
    const state = this.locks.get(pair);
    if (count < LOGIN_MAX_FAILURES && !state) return;
    if (this.locks.size > 10_000) this.sweep();
    const locks = state?.locks ?? 0;
    this.locks.set(pair, { locks: locks + 1, lockedUntil: this.clock.now() + this.lockMs(locks) });
    // The failures that led here are paid for by the lock; after it, each failure locks again.
    this.pairAttempts.clear(pair);
    this.pairFailures.clear(pair);
  }

  private lockMs(previousLocks: number): number {
    return Math.min(FIRST_LOCK_MS * 2 ** previousLocks, LOCK_CAP_MS);
  }

  private nextLockMs(pair: string): number {
    return this.lockMs(this.locks.get(pair)?.locks ?? 0);
  }

  private lockedForMs(pair: string): number {
    const state = this.locks.get(pair);
    if (!state) return 0;
    const now = this.clock.now();
    // A streak ends once the pair has been quiet for a whole window after its last lock.
    if (now - state.lockedUntil >= LOGIN_WINDOW_MS) {
      this.locks.delete(pair);
      return 0;
    }
    return Math.max(0, state.lockedUntil - now);
  }

  private isKnown(account: string, address: string): boolean {
    return this.knownAddresses.get(account)?.includes(address) ?? false;
  }

  private remember(account: string, address: string): void {
    const known = (this.knownAddresses.get(account) ?? []).filter((other) => other !== address);
    known.push(address);
    if (known.length > KNOWN_ADDRESSES_PER_ACCOUNT) known.shift();
    this.knownAddresses.set(account, known);
  }

  /** Drops ended streaks and aged-out failures, so memory does not grow with every address seen. */
  private sweep(): void {
    for (const pair of [...this.locks.keys()]) this.lockedForMs(pair);
    for (const window of [this.pairAttempts, this.pairFailures, this.byAddress, this.byAccountFromUnknown])
      window.sweep();
  }
}
