import type { PlayQueueRecord } from '../../server/domain/play-queue.js';
import type { PlayQueuesStore } from '../../server/domain/ports.js';

/** Saved play queues in memory, kept as PlayQueuesRepo keeps them: an empty queue is none. */
export class FakePlayQueuesStore implements PlayQueuesStore {
  readonly queues = new Map<string, PlayQueueRecord>();

  find(userId: string): PlayQueueRecord | undefined {
    return this.queues.get(userId);
  }

  save(userId: string, queue: PlayQueueRecord): Promise<void> {
    if (queue.trackIds.length === 0) this.queues.delete(userId);
    else this.queues.set(userId, queue);
    return Promise.resolve();
  }

  removeUser(userId: string): Promise<void> {
    this.queues.delete(userId);
    return Promise.resolve();
  }
}
