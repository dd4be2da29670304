import * as outbox from '../domain/forwarding.js';
import type { KeptForwarding, OutgoingListen } from '../domain/forwarding.js';
import { JsonDocument, type Versioned } from './json-document.js';

interface ForwardingFile extends Versioned {
  /** user id → their forwarding and its outbox. */
  users: Record<string, KeptForwarding>;
}

/**
 * Each member's forwarding of plays (forwarding.json, mode 0600): the sealed token, the outbox of
 * listens not yet taken by the service, and how the last send went. Every change is on disk before
 * it resolves, so the outbox survives restarts.
 */
export class ForwardingRepo extends outbox.SendOutcomes {
  private constructor(private readonly doc: JsonDocument<ForwardingFile>) {
    super();
  }

  static async open(path: string): Promise<ForwardingRepo> {
    return new ForwardingRepo(await JsonDocument.open<ForwardingFile>(path, { schemaVersion: 1, users: {} }));
  }

  find(userId: string): Readonly<KeptForwarding> | undefined {
    return this.doc.data.users[userId];
  }

  /** Members whose outbox has listens and who have a token (to resume sending after a start). */
  pending(): string[] {
    return Object.entries(this.doc.data.users)
      .filter(([, record]) => outbox.hasPending(record))
      .map(([userId]) => userId);
  }

  /** Sets the url and token; a null token turns forwarding off and empties the outbox. */
  configure(userId: string, url: string, sealedToken: string | null): Promise<void> {
    return this.doc.mutate((data) => {
      data.users[userId] = outbox.configured(data.users[userId], url, sealedToken);
    });
  }

  /**
   * Appends listens to a member's outbox (only while forwarding is on); beyond `limit` the oldest
   * are dropped. Resolves to how many were dropped.
   */
  enqueue(userId: string, listens: readonly OutgoingListen[], limit: number, now: number): Promise<number> {
    return this.doc
      .mutate(
        (data) => outbox.enqueue(data.users[userId], listens, limit, now),
        (dropped) => dropped !== null,
      )
      .then((dropped) => dropped ?? 0);
  }

  /** Drops a member's forwarding (when the account is deleted). */
  async removeUser(userId: string): Promise<void> {
    await this.doc.dropEntry((data) => data.users, userId);
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }

  protected change(userId: string, epoch: number, apply: (record: KeptForwarding) => void): Promise<void> {
    return this.doc
      .mutate(
        (data) => outbox.changeIfCurrent(data.users[userId], epoch, apply),
        (changed) => changed,
      )
      .then(() => undefined);
  }
}
