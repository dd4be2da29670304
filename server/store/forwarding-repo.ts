import type { ForwardingError, ForwardingRecord, OutgoingListen } from '../domain/forwarding.js';
import { JsonDocument, type Versioned } from './json-document.js';

interface ForwardingFile extends Versioned {
  /** user id → their forwarding and its outbox. */
  users: Record<string, StoredForwarding>;
}

/**
 * `epoch` changes whenever the member sets forwarding again, so a send that started before cannot
 * take listens off the outbox that replaced the one it read.
 */
interface StoredForwarding extends ForwardingRecord {
  epoch: number;
}

/** Transient errors: the next successful send clears them (refusals and drops stay to be read). */
const TRANSIENT = new Set(['unreachable', 'server_error', 'rate_limited']);

/**
 * Each member's forwarding of plays (forwarding.json, mode 0600): the sealed token, the outbox of
 * listens not yet taken by the service, and how the last send went. Every change is on disk before
 * it resolves, so the outbox survives restarts.
 */
export class ForwardingRepo {
  private constructor(private readonly doc: JsonDocument<ForwardingFile>) {}

  static async open(path: string): Promise<ForwardingRepo> {
    return new ForwardingRepo(await JsonDocument.open<ForwardingFile>(path, { schemaVersion: 1, users: {} }));
  }

  find(userId: string): (Readonly<ForwardingRecord> & { epoch: number }) | undefined {
    return this.doc.data.users[userId];
  }

  /** Members whose outbox has listens and who have a token (to resume sending after a start). */
  pending(): string[] {
    return Object.entries(this.doc.data.users)
      .filter(([, record]) => record.sealedToken !== null && record.queue.length > 0)
      .map(([userId]) => userId);
  }

  /** Sets the url and token; a null token turns forwarding off and empties the outbox. */
  configure(userId: string, url: string, sealedToken: string | null): Promise<void> {
    return this.doc.mutate((data) => {
      const old = data.users[userId];
      data.users[userId] = {
        url,
        sealedToken,
        tokenRefused: false,
        lastSentAt: old?.lastSentAt ?? null,
        lastError: null,
        queue: sealedToken === null ? [] : (old?.queue ?? []),
        epoch: (old?.epoch ?? 0) + 1,
      };
    });
  }

  /**
   * Appends listens to a member's outbox (only while forwarding is on); beyond `limit` the oldest
   * are dropped. Resolves to how many were dropped.
   */
  enqueue(userId: string, listens: readonly OutgoingListen[], limit: number, now: number): Promise<number> {
    return this.doc
      .mutate(
        (data) => {
          const record = data.users[userId];
          if (!record || record.sealedToken === null || listens.length === 0) return -1;
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
        },
        (dropped) => dropped >= 0,
      )
      .then((dropped) => Math.max(dropped, 0));
  }

  /** The service took the first `taken` listens. */
  sent(userId: string, epoch: number, taken: number, now: number): Promise<void> {
    return this.change(userId, epoch, (record) => {
      record.queue.splice(0, taken);
      record.lastSentAt = now;
      if (record.lastError && TRANSIENT.has(record.lastError.code)) record.lastError = null;
    });
  }

  /** The service refused the first `refused` listens for good: they leave the outbox. */
  dropped(userId: string, epoch: number, refused: number, error: ForwardingError): Promise<void> {
    return this.change(userId, epoch, (record) => {
      record.queue.splice(0, refused);
      record.lastError = error;
    });
  }

  /** A send failed; the outbox is kept (`tokenRefused` stops sending until a new token). */
  failed(userId: string, epoch: number, error: ForwardingError): Promise<void> {
    return this.change(userId, epoch, (record) => {
      record.lastError = error;
      if (error.code === 'token_refused') record.tokenRefused = true;
    });
  }

  /** Drops a member's forwarding (when the account is deleted). */
  async removeUser(userId: string): Promise<void> {
    await this.doc.mutate(
      (data) => {
        const had = userId in data.users;
        delete data.users[userId];
        return had;
      },
      (had) => had,
    );
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }

  private change(userId: string, epoch: number, apply: (record: StoredForwarding) => void): Promise<void> {
    return this.doc
      .mutate(
        (data) => {
          const record = data.users[userId];
          if (!record || record.epoch !== epoch) return false;
          apply(record);
          return true;
        },
        (changed) => changed,
      )
      .then(() => undefined);
  }
}
