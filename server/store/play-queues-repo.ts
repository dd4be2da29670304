import type { PlayQueueRecord } from '../domain/play-queue.js';
import { JsonDocument, type Versioned } from './json-document.js';

interface PlayQueuesFile extends Versioned {
  /** user id → the queue they saved last. */
  queues: Record<string, PlayQueueRecord>;
}

/** Each user's saved play queue (play-queues.json). */
export class PlayQueuesRepo {
  private constructor(private readonly doc: JsonDocument<PlayQueuesFile>) {}

  static async open(path: string): Promise<PlayQueuesRepo> {
    return new PlayQueuesRepo(
      await JsonDocument.open<PlayQueuesFile>(path, { schemaVersion: 1, queues: {} }),
    );
  }

  find(userId: string): PlayQueueRecord | undefined {
    return this.doc.data.queues[userId];
  }

  /** Replaces the user's queue; an empty queue removes it. */
  save(userId: string, queue: PlayQueueRecord): Promise<void> {
    return this.doc.mutate((data) => {
      if (queue.trackIds.length === 0) delete data.queues[userId];
      else data.queues[userId] = queue;
    });
  }

  /** Drops a user's queue (when the account is deleted). */
  async removeUser(userId: string): Promise<void> {
    await this.doc.dropEntry((data) => data.queues, userId);
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }
}
