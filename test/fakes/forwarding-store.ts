import type { ForwardingError, ForwardingRecord, OutgoingListen } from '../../server/domain/forwarding.js';
import type { ForwardingStore } from '../../server/domain/ports.js';

type Stored = ForwardingRecord & { epoch: number };

/** Members' forwarding in memory, kept as ForwardingRepo keeps it (test/unit/domain/ports.test.ts). */
export class FakeForwardingStore implements ForwardingStore {
  readonly records = new Map<string, Stored>();

  find(userId: string): Stored | undefined {
    return this.records.get(userId);
  }

  pending(): string[] {
    return [...this.records]
      .filter(([, record]) => record.sealedToken !== null && record.queue.length > 0)
      .map(([userId]) => userId);
  }

  configure(userId: string, url: string, sealedToken: string | null): Promise<void> {
    const old = this.records.get(userId);
    this.records.set(userId, {
      url,
      sealedToken,
      tokenRefused: false,
      lastSentAt: old?.lastSentAt ?? null,
      lastError: null,
      queue: sealedToken === null ? [] : (old?.queue ?? []),
      epoch: (old?.epoch ?? 0) + 1,
    });
    return Promise.resolve();
  }

  enqueue(userId: string, listens: readonly OutgoingListen[], limit: number, now: number): Promise<number> {
    const record = this.records.get(userId);
    if (!record || record.sealedToken === null) return Promise.resolve(0);
    record.queue.push(...listens);
    const over = record.queue.length - limit;
    if (over <= 0) return Promise.resolve(0);
    record.queue.splice(0, over);
    record.lastError = { code: 'outbox_full', message: `the ${over} oldest were dropped`, at: now };
    return Promise.resolve(over);
  }

  sent(userId: string, epoch: number, taken: number, now: number): Promise<void> {
    return this.change(userId, epoch, (record) => {
      record.queue.splice(0, taken);
      record.lastSentAt = now;
      if (record.lastError && ['unreachable', 'server_error', 'rate_limited'].includes(record.lastError.code))
        record.lastError = null;
    });
  }

  dropped(userId: string, epoch: number, refused: number, error: ForwardingError): Promise<void> {
    return this.change(userId, epoch, (record) => {
      record.queue.splice(0, refused);
      record.lastError = error;
    });
  }

  failed(userId: string, epoch: number, error: ForwardingError): Promise<void> {
    return this.change(userId, epoch, (record) => {
      record.lastError = error;
      if (error.code === 'token_refused') record.tokenRefused = true;
    });
  }

  removeUser(userId: string): Promise<void> {
    this.records.delete(userId);
    return Promise.resolve();
  }

  private change(userId: string, epoch: number, apply: (record: Stored) => void): Promise<void> {
    const record = this.records.get(userId);
    if (record && record.epoch === epoch) apply(record);
    return Promise.resolve();
  }
}
