import type { Principal } from '../../../domain/user.js';
import type { Services } from '../../../services/create-services.js';

/**
 * Plays of a track summed over every listener whose statistics the caller may read, looked up per
 * track (0 for a track nobody of them played): a list of an artist's tracks costs those tracks, not
 * everything the household ever played.
 */
export function householdTrackPlays(services: Services, caller: Principal): (trackId: string) => number {
  const listeners = services.users
    .list()
    .filter((user) => services.stats.mayRead(caller, user.id))
    .map((user) => services.stats.playCountLookup(caller, 'tracks', user.id));
  return (trackId) => listeners.reduce((sum, plays) => sum + (plays(trackId)?.plays ?? 0), 0);
}
