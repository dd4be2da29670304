import { AppError } from '../../../errors.js';
import type { Principal } from '../../../domain/user.js';
import type { Services } from '../../../services/create-services.js';

const ALL = 1_000_000;

/**
 * Whether the caller may read this user's statistics: asked of the statistics service itself (its
 * privacy rule: one's own, public ones, anyone's for an Admin), so the rule lives in one place.
 */
export function mayReadStatsOf(services: Services, caller: Principal, userId: string): boolean {
  try {
    services.stats.listeningTime(caller, { userId, page: 0, count: 1 });
    return true;
  } catch (error) {
    if (error instanceof AppError && (error.code === 'stats_private' || error.code === 'user_not_found'))
      return false;
    throw error;
  }
}

/** Plays per track summed over every listener whose statistics the caller may read. */
export function householdTrackPlays(services: Services, caller: Principal): Map<string, number> {
  const plays = new Map<string, number>();
  for (const user of services.users.list()) {
    if (!mayReadStatsOf(services, caller, user.id)) continue;
    const top = services.stats.top(caller, 'tracks', { userId: user.id, page: 0, count: ALL }) as Array<{
      id: string;
      plays: number;
    }>;
    for (const item of top) if (item.plays > 0) plays.set(item.id, (plays.get(item.id) ?? 0) + item.plays);
  }
  return plays;
}
