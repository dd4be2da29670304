import * as outbox from '../../server/domain/forwarding.js';
import type { KeptForwarding, OutgoingListen } from '../../server/domain/forwarding.js';
import type { ForwardingStore } from '../../server/domain/ports.js';

/**
 * Members' forwarding in memory, changed by the same rules as ForwardingRepo
 * (test/unit/domain/ports.test.ts).
 */
export class FakeForwardingStore extends outbox.SendOutcomes implements ForwardingStore {
  readonly records = new Map<string, KeptForwarding>();

  find(userId: string): KeptForwarding | undefined {
    return this.records.get(userId);
  }

  pending(): string[] {
    return [...this.records].filter(([, record]) => outbox.hasPending(record)).map(([userId]) => userId);
  }

  configure(userId: string, url: string, sealedToken: string | null): Promise<void> {
    this.records.set(userId, outbox.configured(this.records.get(userId), url, sealedToken));
    return Promise.resolve();
  }

  enqueue(userId: string, listens: readonly OutgoingListen[], limit: number, now: number): Promise<number> {
    return Promise.resolve(outbox.enqueue(this.records.get(userId), listens, limit, now) ?? 0);
  }

  removeUser(userId: string): Promise<void> {
    this.records.delete(userId);
    return Promise.resolve();
  }

  protected change(userId: string, epoch: number, apply: (record: KeptForwarding) => void): Promise<void> {
    outbox.changeIfCurrent(this.records.get(userId), epoch, apply);
    return Promise.resolve();
  }
}
