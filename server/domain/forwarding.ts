import type { ForwardingErrorCode } from '../contract/forwarding.js';

/** One listen as it goes out to ListenBrainz: names, not Melon ids, so the outbox outlives the library. */
export interface OutgoingListen {
  /** Epoch seconds. */
  listenedAt: number;
  artist: string;
  title: string;
  album: string | null;
  durationMs: number | null;
  recordingMbid: string | null;
  releaseMbid: string | null;
  trackNumber: number | null;
  /** The player that played it (ListenBrainz's media_player). */
  client: string | null;
}

export interface ForwardingError {
  code: ForwardingErrorCode;
  message: string;
  /** epoch ms */
  at: number;
}

/** A member's forwarding: where to, the sealed token, what waits to go and how the last send went. */
export interface ForwardingRecord {
  url: string;
  /** The ListenBrainz token, sealed (AES-256-GCM); null: forwarding is off. */
  sealedToken: string | null;
  /** The service refused the token: nothing is sent until a token is given again. */
  tokenRefused: boolean;
  /** epoch ms */
  lastSentAt: number | null;
  lastError: ForwardingError | null;
  /** The outbox, oldest first. */
  queue: OutgoingListen[];
}

/**
 * A member's forwarding as it is kept. `epoch` changes whenever the member sets forwarding again,
 * so a send that started before cannot take listens off the outbox that replaced the one it read.
 */
export interface KeptForwarding extends ForwardingRecord {
  epoch: number;
}

/** Transient errors: the next successful send clears them (refusals and drops stay to be read). */
const TRANSIENT: ReadonlySet<ForwardingErrorCode> = new Set(['unreachable', 'server_error', 'rate_limited']);

/** Whether a send should start for this member: there is a token and something waits. */
export function hasPending(record: ForwardingRecord): boolean {
  return record.sealedToken !== null && record.queue.length > 0;
}

/**
 * Forwarding set again with a url and token: the last send's time is kept, errors are cleared, and
 * a null token turns it off and empties the outbox.
 */
export function configured(
  old: KeptForwarding | undefined,
  url: string,
  sealedToken: string | null,
): KeptForwarding {
  return {
    url,
    sealedToken,
    tokenRefused: false,
    lastSentAt: old?.lastSentAt ?? null,
    lastError: null,
    queue: sealedToken === null ? [] : (old?.queue ?? []),
    epoch: (old?.epoch ?? 0) + 1,
  };
}

/**
 * Appends listens to the outbox (only while forwarding is on); beyond `limit` the oldest are
 * dropped and that is the last error. Returns how many were dropped, or null when nothing changed.
 */
export function enqueue(
  record: ForwardingRecord | undefined,
  listens: readonly OutgoingListen[],
  limit: number,
  now: number,
): number | null {
  if (!record || record.sealedToken === null || listens.length === 0) return null;
  record.queue.push(...listens);
  const over = record.queue.length - limit;
  if (over <= 0) return 0;
  record.queue.splice(0, over);
  record.lastError = {
    code: 'outbox_full',
    message: `The outbox holds at most ${limit} listens: the ${over} oldest were dropped`,
    at: now,
  };
  return over;
}

/** The service took the first `taken` listens; a transient error is over. */
export function markSent(record: ForwardingRecord, taken: number, now: number): void {
  record.queue.splice(0, taken);
  record.lastSentAt = now;
  if (record.lastError && TRANSIENT.has(record.lastError.code)) record.lastError = null;
}

/** The service refused the first `refused` listens for good: they leave the outbox. */
export function markDropped(record: ForwardingRecord, refused: number, error: ForwardingError): void {
  record.queue.splice(0, refused);
  record.lastError = error;
}

/** A send failed; the outbox is kept (`tokenRefused` stops sending until a new token). */
export function markFailed(record: ForwardingRecord, error: ForwardingError): void {
  record.lastError = error;
  if (error.code === 'token_refused') record.tokenRefused = true;
}

/**
 * Applies `apply` to a member's kept record only if it is the outbox the send read (the same
 * epoch). Returns whether it did.
 */
export function changeIfCurrent(
  record: KeptForwarding | undefined,
  epoch: number,
  apply: (record: KeptForwarding) => void,
): boolean {
  if (!record || record.epoch !== epoch) return false;
  apply(record);
  return true;
}

/**
 * How a send ended, the same for every store of forwarding: each outcome changes the outbox the
 * send read, through the store's own `change` (a write to disk, or a change in memory).
 */
export abstract class SendOutcomes {
  protected abstract change(
    userId: string,
    epoch: number,
    apply: (record: KeptForwarding) => void,
  ): Promise<void>;

  /** The service took the first `taken` listens. */
  sent(userId: string, epoch: number, taken: number, now: number): Promise<void> {
    return this.change(userId, epoch, (record) => markSent(record, taken, now));
  }

  /** The service refused the first `refused` listens for good: they leave the outbox. */
  dropped(userId: string, epoch: number, refused: number, error: ForwardingError): Promise<void> {
    return this.change(userId, epoch, (record) => markDropped(record, refused, error));
  }

  /** A send failed; the outbox is kept (`tokenRefused` stops sending until a new token). */
  failed(userId: string, epoch: number, error: ForwardingError): Promise<void> {
    return this.change(userId, epoch, (record) => markFailed(record, error));
  }
}
