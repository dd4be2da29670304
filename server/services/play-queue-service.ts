import type { Clock } from '../clock.js';
import type { PlayQueueRecord } from '../domain/play-queue.js';
import { accountOf, type Principal } from '../domain/user.js';
import { invalidParameter } from '../errors.js';
import type { PlayQueuesStore } from '../domain/ports.js';
import type { LibraryService } from './library-service.js';

/** The most tracks a saved queue may hold. */
export const MAX_QUEUE_TRACKS = 5000;

/** Each user's play queue, saved by one player and picked up by another (the kitchen, then the car). */
export class PlayQueueService {
  constructor(
    private readonly queues: PlayQueuesStore,
    private readonly library: LibraryService,
    private readonly clock: Clock,
  ) {}

  /** The caller's queue without tracks that have left the library since, or null when none is saved. */
  get(caller: Principal): PlayQueueRecord | null {
    const queue = this.queues.find(accountOf(caller));
    if (!queue) return null;
    const trackIds = queue.trackIds.filter((id) => this.library.hasTrack(id));
    const current = queue.current !== null && trackIds.includes(queue.current) ? queue.current : null;
    return { ...queue, trackIds, current, positionMs: current === null ? 0 : queue.positionMs };
  }

  /**
   * Replaces the caller's queue. Every track must exist; `current` must be one of them; an empty
   * list clears the queue.
   */
  async save(
    caller: Principal,
    request: { trackIds: string[]; current: string | null; positionMs: number; client: string | null },
  ): Promise<void> {
    const userId = accountOf(caller);
    if (request.trackIds.length > MAX_QUEUE_TRACKS)
      throw invalidParameter('id', `A play queue holds at most ${MAX_QUEUE_TRACKS} tracks`);
    for (const id of request.trackIds) this.library.track(id);
    if (request.current !== null && !request.trackIds.includes(request.current))
      throw invalidParameter('current', "Parameter 'current' must be one of the queue's tracks");
    await this.queues.save(userId, {
      trackIds: request.trackIds,
      current: request.current,
      positionMs: request.current === null ? 0 : Math.max(0, request.positionMs),
      changedAt: this.clock.now(),
      changedBy: request.client,
    });
  }
}
