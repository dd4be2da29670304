import { isoUtc, type Clock } from '../../clock.js';
import type { Forwarding, ForwardingErrorCode } from '../../contract/forwarding.js';
import type { ForwardingError, OutgoingListen } from '../../domain/forwarding.js';
import type { ForwardingStore } from '../../domain/ports.js';
import { accountOf, type Principal } from '../../domain/user.js';
import type { Logger } from '../../logger.js';
import type { AppPasswordSealer } from '../app-password-sealer.js';
import { ListenBrainzClient, type SendOutcome } from './listenbrainz-client.js';

export interface ForwardingOptions {
  /** The most listens a member's outbox keeps; beyond it the oldest are dropped. */
  outboxLimit: number;
  /** The most listens in one `import` request. */
  batch: number;
  /** The wait after the first failed send; it doubles with each failure after, up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** A request not answered by then is given up and retried. */
  timeoutMs: number;
  version: string;
  /** Where plays go when the member names no service (MELON_LISTENBRAINZ_URL). */
  defaultUrl: string;
}

export const FORWARDING_DEFAULTS: Omit<ForwardingOptions, 'version' | 'defaultUrl'> = {
  outboxLimit: 10_000,
  // ListenBrainz takes up to 1,000 listens a request; 100 keeps each request small.
  batch: 100,
  retryBaseMs: 30_000,
  retryMaxMs: 60 * 60_000,
  timeoutMs: 30_000,
};

/** Where a play or a "playing now" is told to the forwarding, whatever API it came through. */
export interface ListenSink {
  /** Resolves once the listen is in the outbox (never rejects: a play stays logged whatever happens here). */
  played(userId: string, listens: readonly OutgoingListen[]): Promise<void>;
  playingNow(userId: string, listen: OutgoingListen): void;
}

/** The sending state of one member (memory only: after a start, sending resumes at once). */
interface Sender {
  timer: NodeJS.Timeout | null;
  /**
   * The last passing failure (no answer, a 5xx, a 429): shown, never written, so a service that is
   * down makes no disk work; a restart sends again at once anyway.
   */
  passing: ForwardingError | null;
  failures: number;
  /** After a batch was refused, this many listens are sent one by one to find the one refused. */
  isolate: number;
}

/**
 * Forwards members' plays to ListenBrainz or a compatible service (docs/API.md, Forwarding plays).
 * A play is put in the member's outbox (forwarding.json) and sent from there: one listen as
 * `single`, a backlog as `import` batches; a failed send is retried with growing waits, the
 * service's rate limit is respected, a refused listen is dropped and a refused token stops sending.
 * "Playing now" is sent once, never queued. Nothing is sent for a member who set no token.
 */
export class ForwardingService implements ListenSink {
  private readonly senders = new Map<string, Sender>();
  private readonly running = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly stopping = new AbortController();
  private readonly client: ListenBrainzClient;

  constructor(
    private readonly repo: ForwardingStore,
    private readonly sealer: AppPasswordSealer,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: ForwardingOptions,
  ) {
    this.client = new ListenBrainzClient({ version: options.version, timeoutMs: options.timeoutMs });
  }

  /** Resumes sending what the outboxes held when the server stopped. */
  start(): void {
    for (const userId of this.repo.pending()) this.kick(userId);
  }

  get(caller: Principal): Forwarding {
    const userId = accountOf(caller);
    const record = this.repo.find(userId);
    const passing = this.senders.get(userId)?.passing ?? null;
    const lastError =
      passing && (!record?.lastError || passing.at >= record.lastError.at)
        ? passing
        : (record?.lastError ?? null);
    return {
      url: record?.url ?? this.options.defaultUrl,
      enabled: record?.sealedToken != null,
      queued: record?.queue.length ?? 0,
      lastSentAt: record?.lastSentAt == null ? null : isoUtc(record.lastSentAt),
      lastError: lastError
        ? { code: lastError.code, message: lastError.message, at: isoUtc(lastError.at) }
        : null,
    };
  }

  /** Sets where the caller's plays go; no token turns forwarding off and empties the outbox. */
  async set(caller: Principal, request: { url?: string | undefined; token?: string | undefined }) {
    const userId = accountOf(caller);
    const url = (request.url ?? this.options.defaultUrl).replace(/\/+$/u, '');
    const sealed = request.token === undefined ? null : this.sealer.seal(request.token);
    this.reset(userId);
    await this.repo.configure(userId, url, sealed);
    this.kick(userId);
    return this.get(caller);
  }

  /** Queued while a token is set, even a refused one: a member who fixes the token loses no play. */
  async played(userId: string, listens: readonly OutgoingListen[]): Promise<void> {
    if (this.repo.find(userId)?.sealedToken == null) return;
    try {
      await this.repo.enqueue(userId, listens, this.options.outboxLimit, this.clock.now());
      this.kick(userId);
    } catch (error) {
      this.logger.error('could not queue a play to forward', { error: String(error) });
    }
  }

  playingNow(userId: string, listen: OutgoingListen): void {
    const record = this.repo.find(userId);
    const sender = this.senders.get(userId);
    // Worth nothing later: not sent while waiting out a failure or the rate limit, never retried.
    if (!record || !this.isOn(userId) || sender?.timer) return;
    const token = this.sealer.open(record.sealedToken!);
    if (token === null) return;
    const { epoch } = record;
    void this.track(this.client.submit(record.url, token, 'playing_now', [listen], this.stopping.signal))
      .then(async (outcome) => {
        if (outcome.kind === 'token_refused' && !this.stopping.signal.aborted)
          await this.repo.failed(userId, epoch, this.error('token_refused', tokenWords(outcome.message)));
      })
      .catch((error: unknown) => {
        this.logger.warn('could not forward playing now', { error: String(error) });
      });
  }

  /** The account is gone: its forwarding and outbox go with it. */
  async removeUser(userId: string): Promise<void> {
    this.reset(userId);
    await this.repo.removeUser(userId);
  }

  /** Stops sending: timers cleared, requests in flight abandoned (their listens stay queued). */
  async close(): Promise<void> {
    this.stopping.abort();
    for (const userId of this.senders.keys()) this.reset(userId);
    await Promise.allSettled([...this.inFlight]);
  }

  private isOn(userId: string): boolean {
    const record = this.repo.find(userId);
    return record !== undefined && record.sealedToken !== null && !record.tokenRefused;
  }

  private sender(userId: string): Sender {
    let sender = this.senders.get(userId);
    if (!sender) {
      sender = { timer: null, passing: null, failures: 0, isolate: 0 };
      this.senders.set(userId, sender);
    }
    return sender;
  }

  private reset(userId: string): void {
    const sender = this.senders.get(userId);
    if (sender?.timer) clearTimeout(sender.timer);
    this.senders.delete(userId);
  }

  /** Starts sending a member's outbox unless a send runs or a wait is pending. */
  private kick(userId: string): void {
    if (this.stopping.signal.aborted || this.running.has(userId) || this.sender(userId).timer) return;
    this.running.add(userId);
    void this.track(this.drain(userId)).catch((error: unknown) => {
      this.logger.error('forwarding plays failed', { error: String(error) });
      this.retryLater(userId);
    });
  }

  private async drain(userId: string): Promise<void> {
    try {
      for (;;) {
        const record = this.repo.find(userId);
        if (this.stopping.signal.aborted || !record || record.queue.length === 0) return;
        if (record.sealedToken === null || record.tokenRefused) return;
        const { epoch } = record;
        const token = this.sealer.open(record.sealedToken);
        if (token === null) {
          // The key file was replaced: the token cannot be read back.
          const error = this.error('token_refused', 'The saved token cannot be read: give it again');
          await this.repo.failed(userId, epoch, error);
          return;
        }
        const sender = this.sender(userId);
        const count = sender.isolate > 0 ? 1 : Math.min(this.options.batch, record.queue.length);
        const listens = record.queue.slice(0, count);
        const outcome = await this.client.submit(
          record.url,
          token,
          count === 1 ? 'single' : 'import',
          listens,
          this.stopping.signal,
        );
        if (this.stopping.signal.aborted) return;
        if (!(await this.settle(userId, epoch, count, outcome))) return;
      }
    } finally {
      this.running.delete(userId);
    }
  }

  /** Records what a send came to; true to go on sending now. */
  private async settle(userId: string, epoch: number, count: number, outcome: SendOutcome): Promise<boolean> {
    const sender = this.sender(userId);
    switch (outcome.kind) {
      case 'sent':
        // Cleared first: the outbox shows the listens gone as soon as the write begins.
        sender.failures = 0;
        sender.passing = null;
        await this.repo.sent(userId, epoch, count, this.clock.now());
        sender.isolate = Math.max(0, sender.isolate - count);
        if (outcome.waitMs > 0) {
          this.wait(userId, outcome.waitMs);
          return false;
        }
        return true;
      case 'refused':
        if (count > 1) {
          sender.isolate = count;
          return true;
        }
        await this.repo.dropped(userId, epoch, 1, this.error('listen_refused', outcome.message));
        sender.isolate = Math.max(0, sender.isolate - 1);
        return true;
      case 'token_refused':
        await this.repo.failed(userId, epoch, this.error('token_refused', tokenWords(outcome.message)));
        return false;
      case 'rate_limited': {
        const message = 'The service asked Melon to slow down (HTTP 429); sending resumes by itself';
        sender.passing = this.error('rate_limited', message);
        if (outcome.waitMs === null) this.retryLater(userId);
        else this.wait(userId, outcome.waitMs);
        return false;
      }
      case 'retry':
        sender.passing = this.error(outcome.code, outcome.message);
        this.retryLater(userId);
        return false;
    }
  }

  /** Waits longer after each failure in a row: base, twice the base, four times… up to the most. */
  private retryLater(userId: string): void {
    const sender = this.sender(userId);
    const delay = Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** sender.failures);
    sender.failures += 1;
    this.wait(userId, delay);
  }

  private wait(userId: string, ms: number): void {
    if (this.stopping.signal.aborted) return;
    const sender = this.sender(userId);
    if (sender.timer) clearTimeout(sender.timer);
    sender.timer = setTimeout(() => {
      sender.timer = null;
      this.kick(userId);
    }, ms);
    sender.timer.unref();
  }

  private error(code: ForwardingErrorCode, message: string): ForwardingError {
    return { code, message, at: this.clock.now() };
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }
}

function tokenWords(message: string): string {
  return `Token refused: ${message.replace(/\.$/u, '')}`;
}
