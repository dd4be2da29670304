import type { Principal } from '../../../domain/user.js';
import type { Services } from '../../../services/create-services.js';

/** Plays per track summed over every listener whose statistics the caller may read. */
export function householdTrackPlays(services: Services, caller: Principal): Map<string, number> {
  const plays = new Map<string, number>();
  for (const user of services.users.list()) {
    if (!services.stats.mayRead(caller, user.id)) continue;
    for (const [id, count] of services.stats.playCounts(caller, 'tracks', user.id))
      plays.set(id, (plays.get(id) ?? 0) + count.plays);
  }
  return plays;
}
